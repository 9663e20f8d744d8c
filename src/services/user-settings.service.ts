// The caller's own settings (Forgejo: routers/api/v1/user/settings.go): profile fields and privacy on the user
// row, display preferences (theme, diff view style, unit hints) as UserSetting rows.
import type { User, UserChangesRow } from '../db/entities.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface UserSettings {
  full_name: string;
  website: string;
  description: string;
  location: string;
  pronouns: string;
  language: string;
  theme: string;
  diff_view_style: string;
  hide_email: boolean;
  hide_activity: boolean;
  enable_repo_unit_hints: boolean;
}

export type UserSettingsChanges = Partial<UserSettings>;

const ROW_FIELDS = {
  full_name: 'fullName',
  website: 'website',
  description: 'description',
  location: 'location',
  pronouns: 'pronouns',
  language: 'language',
  hide_email: 'keepEmailPrivate',
  hide_activity: 'hideActivity',
} as const satisfies Partial<Record<keyof UserSettings, keyof User>>;

/** Forgejo's defaults for the preferences a user has not set. */
const DEFAULT_THEME = 'forgejo-auto';
const DEFAULT_DIFF_VIEW_STYLE = 'unified';

export class UserSettingsService {
  constructor(private readonly deps: ServiceDeps) {}

  async get(user: User): Promise<UserSettings> {
    const stored = await this.deps.repos.userSettings.all(user.id);
    return {
      full_name: user.fullName,
      website: user.website,
      description: user.description,
      location: user.location,
      pronouns: user.pronouns,
      language: user.language,
      theme: stored.get('theme') || DEFAULT_THEME,
      diff_view_style: stored.get('diff_view_style') || DEFAULT_DIFF_VIEW_STYLE,
      hide_email: user.keepEmailPrivate,
      hide_activity: user.hideActivity,
      enable_repo_unit_hints: stored.get('enable_repo_unit_hints') !== 'false',
    };
  }

  /** Absent fields stay as they are; row and preferences change in one transaction. */
  async update(user: User, changes: UserSettingsChanges): Promise<UserSettings> {
    const data: UserChangesRow = {};
    for (const [field, column] of Object.entries(ROW_FIELDS)) {
      const value = changes[field as keyof typeof ROW_FIELDS];
      if (value !== undefined) (data as Record<string, unknown>)[column] = value;
    }
    const updated = await this.deps.transactions.run(async (repos) => {
      if (changes.theme !== undefined) await repos.userSettings.put(user.id, 'theme', changes.theme);
      if (changes.diff_view_style !== undefined)
        await repos.userSettings.put(user.id, 'diff_view_style', changes.diff_view_style);
      if (changes.enable_repo_unit_hints !== undefined)
        await repos.userSettings.put(user.id, 'enable_repo_unit_hints', String(changes.enable_repo_unit_hints));
      return repos.users.update(user.id, { ...data, updatedAt: new Date() });
    });
    return this.get(updated);
  }
}
