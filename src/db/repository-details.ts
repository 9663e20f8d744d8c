// What a repository answer is built from: the row with its owner and units, and what the record shows besides.
import type { RepoPermission } from '../domain/access/repo-permission.ts';
import type { Models, Repository, User } from './prisma.ts';

/** A repository row with the relations every repository answer needs (repoInclude). */
export type RepoWithOwner = Repository & { owner: User; units: Models.RepoUnitModel[] };

/** A repository and someone's permission on it (what repoAssignment resolves for the caller). */
export interface RepoWithPermission {
  readonly repo: RepoWithOwner;
  readonly permission: RepoPermission;
}

export interface RepositoryDetails {
  repo: RepoWithOwner;
  /** The viewer's permission on it. */
  permission: RepoPermission;
  mirror?: Models.MirrorModel | null;
  releaseCount?: number;
}

/** A repository with what its record shows besides the viewer's permission. */
export type RepositoryRecordDetails = Omit<RepositoryDetails, 'permission'>;
