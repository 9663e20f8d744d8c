// Pull requests: the branches an issue compares, scoped by the base repository.
import type { IssueDetails, PullRequestRow } from './issue.repository.ts';
import type { DbClient, Prisma, User } from './prisma.ts';
import type { RepositoryDetails } from './repository-details.ts';

/** A pull request with what its record shows. */
export interface PullDetails extends IssueDetails {
  pull: PullRequestRow;
  repoDetails: RepositoryDetails;
  /** The commit each branch points at. */
  baseSha: string;
  /** Who merged it, once merged. */
  mergedBy?: User | null;
  /** Users asked for a review and not answered yet. */
  requestedReviewers?: User[];
}

export class PullRequestRepository {
  constructor(private readonly client: DbClient) {}

  create(data: Prisma.PullRequestUncheckedCreateInput) {
    return this.client.pullRequest.create({ data });
  }

  /** An open pull request of the repository from `headBranch` into `baseBranch`, if one exists. */
  async findOpen(repoId: number, headBranch: string, baseBranch: string) {
    const pulls = await this.client.pullRequest.findMany({
      where: { baseRepoId: repoId, headRepoId: repoId, headBranch, baseBranch, hasMerged: false },
    });
    if (pulls.length === 0) return null;
    const open = await this.client.issue.findFirst({
      where: { id: { in: pulls.map((p) => p.issueId) }, isClosed: false },
    });
    return open ? pulls.find((p) => p.issueId === open.id)! : null;
  }

  /** The newest pull request of the repository from `headBranch` into `baseBranch`. */
  findLatest(repoId: number, headBranch: string, baseBranch: string) {
    return this.client.pullRequest.findFirst({
      where: { baseRepoId: repoId, headBranch, baseBranch },
      orderBy: { id: 'desc' },
    });
  }

  /** The pull request whose merge wrote this commit into the repository (Forgejo: GetPullRequestByMergedCommit). */
  findByMergedCommit(repoId: number, sha: string) {
    return this.client.pullRequest.findFirst({ where: { baseRepoId: repoId, hasMerged: true, mergedCommitId: sha } });
  }

  update(id: number, data: Prisma.PullRequestUncheckedUpdateInput) {
    return this.client.pullRequest.update({ where: { id }, data });
  }

  /** Open pull requests of the repository from one of these branches. */
  async listOpenFrom(repoId: number, headBranches: readonly string[]) {
    if (headBranches.length === 0) return [];
    const pulls = await this.client.pullRequest.findMany({
      where: { baseRepoId: repoId, headBranch: { in: [...headBranches] }, hasMerged: false },
    });
    const open = await this.client.issue.findMany({
      where: { id: { in: pulls.map((p) => p.issueId) }, isClosed: false },
      select: { id: true },
    });
    const openIds = new Set(open.map((issue) => issue.id));
    return pulls.filter((pull) => openIds.has(pull.issueId));
  }
}
