// The teams of a repository's organization that reach it (Forgejo: routers/api/v1/repo/teams.go): list, check, add
// and remove, for repositories owned by an organization only (405 otherwise).
import type { RepoWithOwner } from '../db/repository-details.ts';
import type { TeamWithUnits } from '../db/team.repository.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { NotAllowedError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

export class RepoTeamService {
  constructor(private readonly deps: ServiceDeps) {}

  private get teams() {
    return this.deps.repos.teams;
  }

  private requireOrgRepo(repo: RepoWithOwner): void {
    if (!isOrganization(repo.owner)) throw new NotAllowedError('repo is not owned by an organization');
  }

  list(repo: RepoWithOwner): Promise<TeamWithUnits[]> {
    this.requireOrgRepo(repo);
    return this.teams.withRepository(repo.ownerId, repo.id);
  }

  /** The named team when it reaches the repository; 404 when there is no such team or it does not. */
  async get(repo: RepoWithOwner, teamName: string): Promise<TeamWithUnits> {
    this.requireOrgRepo(repo);
    const team = (await this.teams.withRepository(repo.ownerId, repo.id)).find(
      (t) => t.lowerName === teamName.toLowerCase(),
    );
    if (!team) throw new NotFoundError('team does not exist');
    return team;
  }

  /** Links a team of the organization to the repository; linked already (or including all) is 422. */
  async add(repo: RepoWithOwner, teamName: string): Promise<void> {
    const team = await this.named(repo, teamName);
    if (team.includesAllRepositories || (await this.teams.hasRepositoryLink(team.id, repo.id)))
      throw new ValidationError(`team '${team.name}' is already added to repo`);
    await this.deps.transactions.run((tx) => tx.teams.addRepositoryLink(repo.ownerId, team.id, repo.id));
  }

  /** Unlinks it; a team that is not linked (or includes all repositories) is 422. */
  async remove(repo: RepoWithOwner, teamName: string): Promise<void> {
    const team = await this.named(repo, teamName);
    if (team.includesAllRepositories)
      throw new ValidationError(`team '${team.name}' includes all repositories of the organization`);
    if (!(await this.teams.hasRepositoryLink(team.id, repo.id)))
      throw new ValidationError(`team '${team.name}' was not added to repo`);
    await this.deps.transactions.run((tx) => tx.teams.removeRepositoryLink(team.id, repo.id));
  }

  private async named(repo: RepoWithOwner, teamName: string) {
    this.requireOrgRepo(repo);
    const [team] = await this.teams.listByLowerNames(repo.ownerId, [teamName.toLowerCase()]);
    if (!team) throw new NotFoundError('team does not exist');
    return team;
  }
}
