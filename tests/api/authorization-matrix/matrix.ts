// The authorization matrix as data: for every operation of the contract, the status each caller gets. Rows are in
// the *.table.ts files of this folder, one per area; each *.test.ts drives one area, coverage.test.ts checks that
// every operation of the contract has a row.
//
// Callers, in column order (CALLERS): anonymous; a signed-in outsider; a member of the organization (in a team
// without repositories); a member of its write team over all repositories (code and packages units); the owner; a
// site admin; a public-only token and a read-only token (read:* on every category) of the owner. Callers sign in
// with `all`-scope tokens, so routes that need the account's password (token routes) refuse every one of them.
//
// The owner dimension: each owner visibility V has its own owner, a user of visibility V who owns an organization
// of visibility V. A row's `owner` says which of the two its path names (`org` by default); for a user-owned path
// the owner column is the user themself. Rows whose path names no owner have one row for every owner.
//
// Writes send harmless bodies; deletes (and writes that can happen once only) act on a throwaway resource, made
// again after each request that consumed it. Expected statuses are Forgejo's (routers/api/v1/api.go guard chains)
// except where a row's comment names a deliberate difference; the one that applies everywhere is that a resource the
// caller may not see is 404 on every route, reads and writes, before sign-in is asked for (Forgejo resolves an
// organization or user without looking at its visibility, then asks for sign-in or a role: 401 or 403, which tells
// callers it exists).
import type { OperationId } from '../../../generated/operations.ts';

export const CALLERS = [
  'anonymous',
  'outsider',
  'orgMember',
  'teamMember',
  'orgOwner',
  'siteAdmin',
  'publicOnlyToken',
  'readOnlyToken',
] as const;
export type CallerName = (typeof CALLERS)[number];
export const OWNER_VISIBILITIES = ['public', 'limited', 'private'] as const;
export type OwnerVisibility = (typeof OWNER_VISIBILITIES)[number];
export const REPO_VISIBILITIES = ['public', 'private'] as const;
export type RepoVisibility = (typeof REPO_VISIBILITIES)[number];

/** One status per caller, in CALLERS order. */
export type Row = readonly [number, number, number, number, number, number, number, number];
export type ByOwner = Readonly<Record<OwnerVisibility, Row>>;

/** The statuses of a path without an owner, of an owner's path, or of a path naming a repository of an owner. */
export type Expected =
  | { readonly anyOwner: Row }
  | { readonly byOwner: ByOwner }
  | { readonly byRepo: Readonly<Record<RepoVisibility, ByOwner>> };

/** A value of the world (world.ts) a path parameter takes: a shared fixture, or one made for the request (`new:`). */
export type Value =
  | 'org'
  | 'ownerUser'
  | 'repo'
  | 'team'
  | 'orgHook'
  | 'label'
  | 'secret'
  | 'variable'
  | 'package'
  | 'packageVersion'
  | 'packageFile'
  | 'issue'
  | 'orgMember'
  | 'teamMember'
  | 'publicMember'
  | 'ownerId'
  | 'adminHook'
  | 'quotaGroup'
  | 'quotaRule'
  | 'cronTask'
  | 'thread'
  | 'avatarHash'
  | 'docsAsset'
  | 'gitignore'
  | 'labelTemplate'
  | 'license'
  | 'generic'
  | 'repoGit'
  | 'missingRef'
  | 'diff'
  | 'new:team'
  | 'new:teamWithMember'
  | 'new:teamWithRepo'
  | 'new:repo'
  | 'new:orgHook'
  | 'new:label'
  | 'new:secret'
  | 'new:variable'
  | 'new:variableName'
  | 'new:package'
  | 'new:packageVersion'
  | 'new:member'
  | 'new:user'
  | 'new:blockedUser'
  | 'new:ownerUserOfVisibility'
  | 'new:adminHook'
  | 'new:quotaGroup'
  | 'new:quotaGroupWithUser'
  | 'new:quotaGroupWithRule'
  | 'new:quotaRule'
  | 'new:publicKey'
  | 'new:unadopted'
  | 'new:token'
  | 'new:topic'
  | 'new:topicName'
  | 'new:repoLabel'
  | 'new:milestone'
  | 'new:comment'
  | 'new:repoHook'
  | 'new:repoSecret'
  | 'new:repoVariable'
  | 'teamName'
  | 'new:teamName'
  | 'new:teamOfRepo'
  | 'new:followedUser'
  | 'repoId';

export interface MatrixRow {
  readonly operation: OperationId;
  /** What the owner dimension varies: an organization (default) or a user. */
  readonly owner?: 'org' | 'user';
  /** Path parameters whose value is not the default for their name (world.ts `defaultValue`). */
  readonly params?: Readonly<Record<string, Value>>;
  readonly query?: Readonly<Record<string, string>>;
  /** JSON body, text for text bodies, bytes for stream bodies; a function makes a fresh one per request. */
  readonly body?: object | string | (() => object);
  readonly expected: Expected;
}
