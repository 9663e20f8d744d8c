// How the prepared statements read User rows: the columns they select, in order, and a row made a User.
import { sqliteDate } from './sqlite-values.ts';
import type { User } from './prisma.ts';

/** The User columns, in the order sqliteUserFromValues reads them. */
const USER_COLUMN_NAMES = [
  'id',
  'type',
  'name',
  'lowerName',
  'fullName',
  'email',
  'keepEmailPrivate',
  'passwordHash',
  'mustChangePassword',
  'loginType',
  'loginSourceId',
  'loginName',
  'location',
  'website',
  'description',
  'pronouns',
  'language',
  'visibility',
  'isActive',
  'isAdmin',
  'isRestricted',
  'prohibitLogin',
  'allowGitHook',
  'allowImportLocal',
  'allowCreateOrganization',
  'maxRepoCreation',
  'avatar',
  'hideActivity',
  'repoAdminChangeTeamAccess',
  'numFollowers',
  'numFollowing',
  'numStars',
  'numRepos',
  'lastLoginAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof User>;
// Compile-time guard: a column added to User must be listed above, or every hot lookup would leave it out.
const everyColumnListed: [Exclude<keyof User, (typeof USER_COLUMN_NAMES)[number]>] extends [never] ? true : false =
  true;
void everyColumnListed;
/** The User columns as prefixedSelect and prefixedPostgresRow (model-columns.ts) take them. */
export const USER_COLUMN_LIST = { names: USER_COLUMN_NAMES } as const;
export const USER_COLUMNS = USER_COLUMN_NAMES.map((name) => `"${name}"`).join(', ');

/**
 * A User row read as an array of USER_COLUMN_NAMES: better-sqlite3 makes an array per row about twice as fast as an
 * object of 36 properties, and the object built here always has the same shape.
 */
export function sqliteUserFromValues(v: unknown[]): User {
  return {
    id: v[0],
    type: v[1],
    name: v[2],
    lowerName: v[3],
    fullName: v[4],
    email: v[5],
    keepEmailPrivate: v[6] === 1,
    passwordHash: v[7],
    mustChangePassword: v[8] === 1,
    loginType: v[9],
    loginSourceId: v[10],
    loginName: v[11],
    location: v[12],
    website: v[13],
    description: v[14],
    pronouns: v[15],
    language: v[16],
    visibility: v[17],
    isActive: v[18] === 1,
    isAdmin: v[19] === 1,
    isRestricted: v[20] === 1,
    prohibitLogin: v[21] === 1,
    allowGitHook: v[22] === 1,
    allowImportLocal: v[23] === 1,
    allowCreateOrganization: v[24] === 1,
    maxRepoCreation: v[25],
    avatar: v[26],
    hideActivity: v[27] === 1,
    repoAdminChangeTeamAccess: v[28] === 1,
    numFollowers: v[29],
    numFollowing: v[30],
    numStars: v[31],
    numRepos: v[32],
    lastLoginAt: sqliteDate(v[33]),
    createdAt: sqliteDate(v[34]),
    updatedAt: sqliteDate(v[35]),
  } satisfies Record<keyof User, unknown> as User;
}

/** A User row from PostgreSQL, less the token columns a token lookup joins to it. */
export function postgresUser(row: Record<string, unknown>): User {
  const { tokenId: _a, scope: _b, tokenUpdatedAt: _c, ...user } = row;
  return user as unknown as User;
}
