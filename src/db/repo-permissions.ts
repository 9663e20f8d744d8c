// A viewer's permission on repositories: the access facts about the viewer read here, then the pure rule of
// src/domain/access/repo-permission.ts. The services ask it through RepoPermissionService; the content lists ask it
// for the few repositories a page of rows comes from (visible-content.ts).
import type { RepoWithOwner } from './repository-details.ts';
import type { AccessFacts, RepoAccessRepository, TeamAccess } from './repo-access.repository.ts';
import { isOrganization, type Viewer } from '../domain/access/owner-visibility.ts';
import {
  NO_FACTS,
  type RepoFacts,
  type RepoPermission,
  repoPermission,
  type ViewerFacts,
  type ViewerTeam,
} from '../domain/access/repo-permission.ts';

/** A repository row as the permission rule reads it: its unit types instead of its unit rows. */
export function repoFactsOf(repo: RepoWithOwner): RepoFacts {
  return { ...repo, units: repo.units.map((unit) => unit.type) };
}

/** The viewer's permission on each repository, in a fixed number of queries. */
export async function permissionsOnRepos(
  access: RepoAccessRepository,
  viewer: Viewer | null,
  repos: readonly RepoWithOwner[],
): Promise<Map<number, RepoPermission>> {
  const facts = viewer && !viewer.isAdmin ? await viewerFacts(access, viewer, repos) : NO_FACTS;
  const result = new Map<number, RepoPermission>();
  for (const repo of repos) {
    result.set(repo.id, repoPermission(viewer, repoFactsOf(repo), facts));
  }
  return result;
}

async function viewerFacts(
  access: RepoAccessRepository,
  viewer: Viewer,
  repos: readonly RepoWithOwner[],
): Promise<ViewerFacts> {
  const repoIds = repos.map((repo) => repo.id);
  const orgIds = [...new Set(repos.filter((repo) => isOrganization(repo.owner)).map((repo) => repo.ownerId))];
  if (repos.length === 1 && orgIds.length === 1)
    return viewerFactsOf(await access.factsOnOrgRepository(viewer.id, repoIds[0], orgIds[0]));
  const [collaborations, memberships, teams] = await Promise.all([
    repoIds.length ? access.listCollaborations(viewer.id, repoIds) : [],
    orgIds.length ? access.listMemberOrgIds(viewer.id, orgIds) : [],
    orgIds.length ? access.listMemberTeams(viewer.id, orgIds, repoIds) : [],
  ]);
  return viewerFactsOf({ collaborations, orgIds: memberships.map((m) => m.orgId), teams });
}

function viewerFactsOf({ collaborations, orgIds, teams }: AccessFacts): ViewerFacts {
  return {
    collaborations: new Map(collaborations.map((c) => [c.repoId, c.accessMode])),
    orgMemberships: new Set(orgIds),
    teams: teams.map(viewerTeam),
  };
}

/** The viewer's permission on a repository whose facts were read with it (RepoAccessRepository). */
export function permissionWithFacts(viewer: Viewer, repo: RepoWithOwner, facts: AccessFacts): RepoPermission {
  return repoPermission(viewer, repoFactsOf(repo), viewer.isAdmin ? NO_FACTS : viewerFactsOf(facts));
}

export function viewerTeam(team: TeamAccess): ViewerTeam {
  return {
    orgId: team.orgId,
    accessMode: team.accessMode,
    includesAllRepositories: team.includesAllRepositories,
    units: new Map(team.units.map((unit) => [unit.type, unit.accessMode])),
    repoIds: new Set(team.repos.map((r) => r.repoId)),
  };
}
