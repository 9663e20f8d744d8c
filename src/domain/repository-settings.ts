// Settings a repository keeps in its `settings` column (JSON).

export interface RepositorySettings {
  objectFormat?: 'sha1' | 'sha256';
  trustModel?: string;
  wikiBranch?: string;
  enablePrune?: boolean;
}

/** The settings of a repository; a column that does not parse counts as none set. */
export function repositorySettings(repo: { settings: string }): RepositorySettings {
  try {
    return JSON.parse(repo.settings) as RepositorySettings;
  } catch {
    return {};
  }
}
