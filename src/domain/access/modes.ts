// Access levels and repository units, with Forgejo's stored numbers (models/perm, models/unit).

export const ACCESS_MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessModeName = (typeof ACCESS_MODES)[number];
export const AccessMode = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[AccessModeName];

export function accessModeName(mode: number): AccessModeName {
  return ACCESS_MODES[mode] ?? 'none';
}

/** Parses `read`/`write`/`admin`/`owner`; anything else is none, as in Forgejo. */
export function parseAccessMode(text: string | undefined): AccessModeValue {
  const index = ACCESS_MODES.indexOf((text ?? '').toLowerCase() as AccessModeName);
  return (index < 0 ? 0 : index) as AccessModeValue;
}

export const UNITS = [
  { type: 1, key: 'repo.code' },
  { type: 2, key: 'repo.issues' },
  { type: 3, key: 'repo.pulls' },
  { type: 4, key: 'repo.releases' },
  { type: 5, key: 'repo.wiki' },
  { type: 6, key: 'repo.ext_wiki' },
  { type: 7, key: 'repo.ext_issues' },
  { type: 8, key: 'repo.projects' },
  { type: 9, key: 'repo.packages' },
  { type: 10, key: 'repo.actions' },
] as const;

export type UnitKey = (typeof UNITS)[number]['key'];
export const UnitType = {
  code: 1,
  issues: 2,
  pulls: 3,
  releases: 4,
  wiki: 5,
  extWiki: 6,
  extIssues: 7,
  projects: 8,
  packages: 9,
  actions: 10,
} as const;

/** External tracker and wiki only link elsewhere: teams never get more than read on them. */
export const EXTERNAL_UNIT_TYPES: readonly number[] = [UnitType.extWiki, UnitType.extIssues];

export function unitTypeOfKey(key: string): number | undefined {
  return UNITS.find((unit) => unit.key === key.toLowerCase())?.type;
}

export function unitKeyOfType(type: number): UnitKey | undefined {
  return UNITS.find((unit) => unit.type === type)?.key;
}

export const Visibility = { public: 0, limited: 1, private: 2 } as const;
