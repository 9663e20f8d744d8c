// A user's access to a repository, overall and per unit (Forgejo: models/perm/access GetUserRepoPermission).
// - anonymous: read on public repositories of public owners, nothing else;
// - site administrators and the owning user: owner;
// - an owner the viewer may not see hides the repository, unless the viewer is a collaborator;
// - collaborators: their Collaboration.accessMode on every unit;
// - org repositories: teams of the org that hold the repository (TeamRepo row or includesAllRepositories);
//   a team at admin level or above makes its members owners, other teams give their TeamUnit modes per unit;
// - a public repository gives read to every signed-in user who is not restricted.
// readableWhere() is the same rule as a Prisma filter, so lists and counts never show what get would hide.
import type { Models, Prisma, Repository, User } from '../db/prisma.ts';
import { RepoAccessRepository } from '../db/repo-access.repository.ts';
import { AccessMode, Visibility } from '../domain/access.ts';
import type { RepoPermission } from '../domain/repo-permission.ts';

export * from '../domain/repo-permission.ts';
import type { ServiceDeps } from './index.ts';

export type RepoWithOwner = Repository & { owner: User; units: Models.RepoUnitModel[] };

const NONE: Omit<RepoPermission, 'units'> = { mode: AccessMode.none, unitModes: null };

interface TeamAccess {
  accessMode: number;
  includesAllRepositories: boolean;
  orgId: number;
  units: Map<number, number>;
  repoIds: Set<number>;
}

interface ViewerFacts {
  collaborations: Map<number, number>;
  orgMemberships: Set<number>;
  teams: TeamAccess[];
}

export class RepoPermissionService {
  private readonly access: RepoAccessRepository;

  constructor(deps: ServiceDeps) {
    this.access = new RepoAccessRepository(deps.db.prisma);
  }

  async forRepo(viewer: User | null, repo: RepoWithOwner): Promise<RepoPermission> {
    return (await this.forRepos(viewer, [repo])).get(repo.id)!;
  }

  /** Permissions for many repositories in a fixed number of queries. */
  async forRepos(viewer: User | null, repos: readonly RepoWithOwner[]): Promise<Map<number, RepoPermission>> {
    const result = new Map<number, RepoPermission>();
    const facts = viewer && !viewer.isAdmin ? await this.viewerFacts(viewer, repos) : null;
    for (const repo of repos) result.set(repo.id, this.compute(viewer, repo, facts));
    return result;
  }

  private async viewerFacts(viewer: User, repos: readonly RepoWithOwner[]): Promise<ViewerFacts> {
    const repoIds = repos.map((repo) => repo.id);
    const orgIds = [...new Set(repos.filter((repo) => repo.owner.type === 1).map((repo) => repo.ownerId))];
    const [collaborations, memberships, teams] = await Promise.all([
      repoIds.length ? this.access.listCollaborations(viewer.id, repoIds) : [],
      orgIds.length ? this.access.listMemberOrgIds(viewer.id, orgIds) : [],
      orgIds.length ? this.access.listMemberTeams(viewer.id, orgIds, repoIds) : [],
    ]);
    return {
      collaborations: new Map(collaborations.map((c) => [c.repoId, c.accessMode])),
      orgMemberships: new Set(memberships.map((m) => m.orgId)),
      teams: teams.map((team) => ({
        orgId: team.orgId,
        accessMode: team.accessMode,
        includesAllRepositories: team.includesAllRepositories,
        units: new Map(team.units.map((unit) => [unit.type, unit.accessMode])),
        repoIds: new Set(team.repos.map((r) => r.repoId)),
      })),
    };
  }

  private compute(viewer: User | null, repo: RepoWithOwner, facts: ViewerFacts | null): RepoPermission {
    const units = repo.units.map((unit) => unit.type);
    if (!viewer) {
      const visible = !repo.isPrivate && repo.owner.visibility === Visibility.public;
      return { mode: visible ? AccessMode.read : AccessMode.none, unitModes: null, units };
    }
    if (viewer.isAdmin || viewer.id === repo.ownerId) return { mode: AccessMode.owner, unitModes: null, units };
    const { collaborations, orgMemberships, teams } = facts!;
    const collaboration = collaborations.get(repo.id);
    const isOrg = repo.owner.type === 1;
    if (collaboration === undefined && !ownerVisible(viewer, repo.owner, orgMemberships.has(repo.ownerId))) return { ...NONE, units };

    let mode: number = !repo.isPrivate && !viewer.isRestricted ? AccessMode.read : AccessMode.none;
    if (collaboration !== undefined) mode = Math.max(mode, collaboration);
    if (!isOrg) return { mode, unitModes: null, units };

    const repoTeams = teams.filter((team) => team.orgId === repo.ownerId && (team.includesAllRepositories || team.repoIds.has(repo.id)));
    if (repoTeams.some((team) => team.accessMode >= AccessMode.admin)) return { mode: AccessMode.owner, unitModes: null, units };
    for (const team of repoTeams) mode = Math.max(mode, team.accessMode);

    const unitModes = new Map<number, number>();
    if (collaboration !== undefined) for (const type of units) unitModes.set(type, mode);
    for (const type of units) {
      let found = false;
      for (const team of repoTeams) {
        const teamMode = team.units.get(type) ?? AccessMode.none;
        if (teamMode > AccessMode.none) {
          unitModes.set(type, Math.max(unitModes.get(type) ?? AccessMode.none, teamMode));
          found = true;
        }
      }
      if (!found && !repo.isPrivate && !viewer.isRestricted && !unitModes.has(type)) unitModes.set(type, AccessMode.read);
    }
    return { mode, unitModes, units };
  }

  /**
   * The repositories a viewer can read, as a Prisma filter: the rule of compute() in SQL. `publicOnly` (a
   * public-only token) further keeps only public repositories of public owners.
   */
  readableWhere(viewer: User | null, publicOnly = false): Prisma.RepositoryWhereInput {
    const everyone: Prisma.RepositoryWhereInput = { isPrivate: false, owner: { visibility: Visibility.public } };
    if (!viewer) return everyone;
    if (publicOnly) return { AND: [everyone, viewer.isAdmin ? {} : this.readableWhere(viewer)] };
    if (viewer.isAdmin) return {};
    const userId = viewer.id;
    const memberOfOwner: Prisma.UserWhereInput = { type: 1, orgMembers: { some: { userId } } };
    const ownerVisible: Prisma.UserWhereInput = viewer.isRestricted
      ? { OR: [{ type: 0, visibility: Visibility.public }, memberOfOwner] }
      : { OR: [{ visibility: { in: [Visibility.public, Visibility.limited] } }, memberOfOwner] };
    const teamGivesAccess: Prisma.TeamWhereInput = {
      members: { some: { userId } },
      OR: [{ accessMode: { gte: AccessMode.admin } }, { units: { some: { accessMode: { gt: AccessMode.none } } } }],
    };
    const throughTeam: Prisma.RepositoryWhereInput = {
      OR: [
        { teamRepos: { some: { team: teamGivesAccess } } },
        { owner: { type: 1, teams: { some: { includesAllRepositories: true, ...teamGivesAccess } } } },
      ],
    };
    return {
      OR: [
        { ownerId: userId },
        { collaborators: { some: { userId } } },
        { AND: [{ owner: ownerVisible }, viewer.isRestricted ? throughTeam : { OR: [{ isPrivate: false }, throughTeam] }] },
      ],
    };
  }
}

function ownerVisible(viewer: User, owner: User, isMember: boolean): boolean {
  const isOrg = owner.type === 1;
  if (viewer.isRestricted) return isOrg ? isMember : owner.visibility === Visibility.public;
  if (owner.visibility !== Visibility.private) return true;
  return isOrg && isMember;
}
