// Repositories looked up: by name, id or old name, with what the Repository converter needs (permission, mirror,
// release count), and where git finds them.
import type { Models, User } from '../db/entities.ts';
import type { RepositoryDetails, RepositoryRecordDetails, RepoWithPermission } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import type { MirrorRepository } from '../db/mirror.repository.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { ForbiddenError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoPermission, RepoPermissionService, RepoWithOwner } from './repo-permission.service.ts';

export class RepositoryLookupService {
  private readonly repos: RepositoryRowsRepository;
  private readonly mirrors: MirrorRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
  ) {
    this.repos = deps.repos.repositories;
    this.mirrors = deps.repos.mirrors;
  }

  /** A repository by owner and name (case-insensitive), with owner and units; null when there is none. */
  async find(ownerName: string, repoName: string): Promise<RepoWithOwner | null> {
    return this.repos.findByOwnerAndName(ownerName.toLowerCase(), repoName.toLowerCase());
  }

  async findById(id: number): Promise<RepoWithOwner | null> {
    return this.repos.findById(id);
  }

  /** A repository of this owner by name (case-insensitive), with owner and units; null when there is none. */
  async findInOwner(owner: User, repoName: string): Promise<RepoWithOwner | null> {
    return this.repos.findInOwner(owner, repoName.toLowerCase());
  }

  /**
   * A repository of this owner by name (case-insensitive) with the viewer's permission on it; null when there is
   * none. In an org, a viewer's facts are read with the repository (one statement on PostgreSQL).
   */
  async findInOwnerWithPermission(
    owner: User,
    repoName: string,
    viewer: User | null,
  ): Promise<RepoWithPermission | null> {
    const lowerName = repoName.toLowerCase();
    if (viewer && !viewer.isAdmin && isOrganization(owner)) return this.permissions.inOrg(viewer, owner, lowerName);
    const repo = await this.repos.findInOwner(owner, lowerName);
    return repo && { repo, permission: await this.permissions.forRepo(viewer, repo) };
  }

  /** What the Repository converter needs beyond the row: mirrors and release counts, for many repositories at once. */
  private async extras(
    repos: readonly RepoWithOwner[],
  ): Promise<{ mirrors: Map<number, Models.MirrorModel>; releases: Map<number, number> }> {
    if (repos.length === 0) return { mirrors: new Map(), releases: new Map() };
    // Only a mirror has a Mirror row: most answers need not ask.
    const mirrored = repos.filter((repo) => repo.isMirror).map((repo) => repo.id);
    const [mirrors, releases] = await Promise.all([
      mirrored.length > 0 ? this.mirrors.listByRepoIds(mirrored) : [],
      this.repos.countReleases(repos.map((repo) => repo.id)),
    ]);
    return { mirrors: new Map(mirrors.map((m) => [m.repoId, m])), releases };
  }

  /** Everything the Repository converter needs for each repository, in a fixed number of queries. */
  async details(
    viewer: User | null,
    repos: readonly RepoWithOwner[],
    fixedPermission?: RepoPermission,
  ): Promise<RepositoryDetails[]> {
    const [permissions, withExtras] = await Promise.all([
      fixedPermission ? null : this.permissions.forRepos(viewer, repos),
      this.withExtras(repos),
    ]);
    return withExtras.map((details) => ({
      ...details,
      permission: fixedPermission ?? permissions!.get(details.repo.id)!,
    }));
  }

  /** What the Repository converter needs but the permission, for answers that show none (activity feeds). */
  async withExtras(repos: readonly RepoWithOwner[]): Promise<RepositoryRecordDetails[]> {
    const { mirrors, releases } = await this.extras(repos);
    return repos.map((repo) => ({
      repo,
      mirror: mirrors.get(repo.id) ?? null,
      releaseCount: releases.get(repo.id) ?? 0,
    }));
  }

  /** The repository a renamed one's old name leads to (Forgejo: repo_model.LookupRedirect); null when none. */
  async renamedTo(ownerId: number, oldName: string): Promise<RepoWithOwner | null> {
    const redirect = await this.repos.findRedirect(ownerId, oldName.toLowerCase());
    if (!redirect) return null;
    return this.repos.findById(redirect.redirectRepoId);
  }

  // ---- smart HTTP ----

  /** Where git finds the repository. */
  gitDirectory(repo: RepoWithOwner): string {
    return this.deps.stores.repositories.directory(repo.ownerName, repo.name);
  }

  /** Pushing into a mirror or an archived repository is refused whatever the caller's permission. */
  assertPushable(repo: RepoWithOwner): void {
    if (repo.isMirror) throw new ForbiddenError('mirror repository is read-only');
    if (repo.isArchived) throw new ForbiddenError('repo is archived');
  }
}
