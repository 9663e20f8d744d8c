// Users and teams named in a protection rule's allow-lists, turned into ids; an unknown name is 422 (Forgejo:
// GetUserIDsByNames, GetTeamIDsByNames with ignoreNonExistent false).
import type { Repositories } from '../db/repositories.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { ValidationError } from '../domain/errors.ts';

export async function userIdsByNames(repos: Repositories, names: readonly string[]): Promise<number[]> {
  const lower = [...new Set(names.map((name) => name.toLowerCase()))];
  const users = await repos.users.listByLowerNames(lower);
  const missing = lower.filter((name) => !users.some((user) => user.lowerName === name));
  if (missing.length > 0) throw new ValidationError(`user does not exist [name: ${missing[0]}]`);
  return users.map((user) => user.id);
}

export async function teamIdsByNames(
  repos: Repositories,
  repo: RepoWithOwner,
  names: readonly string[],
): Promise<number[]> {
  if (names.length === 0) return [];
  if (!isOrganization(repo.owner))
    throw new ValidationError('teams can only be named for a repository of an organization');
  const lower = [...new Set(names.map((name) => name.toLowerCase()))];
  const teams = await repos.teams.listByLowerNames(repo.ownerId, lower);
  const missing = lower.filter((name) => !teams.some((team) => team.lowerName === name));
  if (missing.length > 0) throw new ValidationError(`team does not exist [name: ${missing[0]}]`);
  return teams.map((team) => team.id);
}

/** Names of the given users and teams, for showing a rule. */
export async function namesOf(
  repos: Repositories,
  userIds: readonly number[],
  teamIds: readonly number[],
): Promise<{ userNames: Map<number, string>; teamNames: Map<number, string> }> {
  const [users, teams] = await Promise.all([
    repos.users.listByIds([...new Set(userIds)]),
    Promise.all([...new Set(teamIds)].map((id) => repos.teams.findById(id))),
  ]);
  return {
    userNames: new Map(users.map((user) => [user.id, user.name])),
    teamNames: new Map(teams.flatMap((team) => (team ? [[team.id, team.name] as const] : []))),
  };
}
