// Reading pull requests (Forgejo: routers/api/v1/repo/pull.go ListPullRequests, GetPullRequest,
// GetPullRequestByBaseHead, GetPullRequestFiles, GetPullRequestCommits, DownloadPullDiffOrPatch, IsPullRequestMerged).
// An open pull request shows where its branches point now; a merged one what it merged.
import type { User } from '../db/entities.ts';
import type { IssueRow } from '../db/issue.repository.ts';
import type { PullDetails } from '../db/pull-request.repository.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { changedFiles, commitsBetween, diffText } from '../infra/git/pull-diff.ts';
import { readBranches } from '../infra/git/refs.ts';
import { compareBranches } from '../infra/git/compare.ts';
import type { IssueService } from './issue.service.ts';
import type { RepositoryLookupService } from './repository-lookup.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface PullListQuery {
  state?: string;
  milestone?: number;
  labels?: number[];
  poster?: string;
}

export class PullReadService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly repositories: RepositoryLookupService,
  ) {}

  dir(access: RepoWithPermission): string {
    return this.deps.stores.repositories.directory(access.repo.ownerName, access.repo.name);
  }

  /** The records of pull requests (issues with isPull) of one repository, branch heads read once. */
  async details(access: RepoWithPermission, viewer: User | null, rows: readonly IssueRow[]): Promise<PullDetails[]> {
    if (rows.length === 0) return [];
    const [issues, branches, [repoDetails]] = await Promise.all([
      this.issues.details(rows),
      readBranches(this.dir(access)),
      this.repositories.details(viewer, [access.repo], access.permission),
    ]);
    const heads = new Map(branches.map((branch) => [branch.name, branch.commit.sha]));
    const requests = await this.deps.repos.reviews.listRequests(issues.map((d) => d.issue.id));
    const mergerIds = issues.map((d) => d.pull?.mergedById ?? 0).filter((id) => id > 0);
    const userIds = [...new Set([...mergerIds, ...requests.map((r) => r.reviewerId)])];
    const users = new Map((await this.deps.repos.issues.listUsers(userIds)).map((user) => [user.id, user]));
    const requested = (issueId: number) =>
      requests.filter((r) => r.issueId === issueId).flatMap((r) => users.get(r.reviewerId) ?? []);
    return issues.flatMap((details) => {
      const pull = details.pull;
      if (!pull) return [];
      const live = !pull.hasMerged && !details.issue.isClosed;
      const headCommitId = live ? (heads.get(pull.headBranch) ?? pull.headCommitId) : pull.headCommitId;
      const mergedBy = users.get(pull.mergedById) ?? null;
      const requestedReviewers = requested(details.issue.id);
      return [
        {
          ...details,
          pull: { ...pull, headCommitId },
          repoDetails,
          baseSha: heads.get(pull.baseBranch) ?? '',
          mergedBy,
          requestedReviewers,
        },
      ];
    });
  }

  async list(
    access: RepoWithPermission,
    viewer: User | null,
    publicOnly: boolean,
    query: PullListQuery,
    page: ListOptions,
  ): Promise<Page<PullDetails>> {
    let posterId: number | undefined;
    if ((query.poster ?? '') !== '') {
      const poster = await this.deps.repos.users.byLowerName(query.poster!.toLowerCase());
      if (!poster) throw new NotFoundError(`user does not exist [uid: 0, name: ${query.poster}]`);
      posterId = poster.id;
    }
    const filter = {
      reader: { viewer, publicOnly },
      repoId: access.repo.id,
      isPull: true,
      ...(query.state === 'all' ? {} : { isClosed: query.state === 'closed' }),
      ...(query.milestone ? { milestoneIds: [query.milestone] } : {}),
      ...(query.labels && query.labels.length > 0 ? { labelIds: query.labels } : {}),
      ...(posterId !== undefined ? { posterId } : {}),
    };
    const { issues } = this.deps.repos;
    const { items: rows, total } = await issues.search(filter, page.skip, page.limit);
    return { items: await this.details(access, viewer, rows), total };
  }

  async get(access: RepoWithPermission, index: number, viewer: User | null): Promise<PullDetails> {
    const issue = await this.issues.findReadable(access, index, viewer);
    if (!issue.isPull) throw new NotFoundError();
    return (await this.details(access, viewer, [issue]))[0];
  }

  /** `head` is a branch or `owner:branch` of this repository. */
  async byBaseHead(access: RepoWithPermission, base: string, head: string, viewer: User | null) {
    const colon = head.indexOf(':');
    const branch = colon < 0 ? head : head.slice(colon + 1);
    if (colon >= 0 && head.slice(0, colon).toLowerCase() !== access.repo.ownerName.toLowerCase())
      throw new NotFoundError();
    const pull = await this.deps.repos.pulls.findLatest(access.repo.id, branch, base);
    const issue = pull ? await this.deps.repos.issues.findById(pull.issueId) : null;
    if (!issue) throw new NotFoundError();
    return this.get(access, issue.index, viewer);
  }

  /** GET …/commits/{sha}/pull: the pull request merged as this commit. */
  async byMergedCommit(access: RepoWithPermission, sha: string, viewer: User | null) {
    const pull = await this.deps.repos.pulls.findByMergedCommit(access.repo.id, sha);
    const issue = pull ? await this.deps.repos.issues.findById(pull.issueId) : null;
    if (!issue) throw new NotFoundError(`pull request does not exist [merged commit: ${sha}]`);
    return this.get(access, issue.index, viewer);
  }

  /** What the pull request compares: its merge base (or base) and its head. */
  private async range(access: RepoWithPermission, index: number, viewer: User | null) {
    const details = await this.get(access, index, viewer);
    const open = !details.pull.hasMerged && details.baseSha !== '';
    const live = open
      ? (await compareBranches(this.dir(access), details.baseSha, details.pull.headCommitId)).mergeBase
      : '';
    const from = live || details.pull.mergeBase || details.baseSha;
    return { details, from, to: details.pull.headCommitId };
  }

  async files(access: RepoWithPermission, index: number, viewer: User | null, page: ListOptions) {
    const { from, to } = await this.range(access, index, viewer);
    const files = await changedFiles(this.dir(access), from, to);
    return { items: files.slice(page.skip, page.skip + page.limit), total: files.length };
  }

  async commits(access: RepoWithPermission, index: number, viewer: User | null, page: ListOptions) {
    const { from, to } = await this.range(access, index, viewer);
    const commits = await commitsBetween(this.dir(access), from, to);
    return { items: commits.slice(page.skip, page.skip + page.limit), total: commits.length };
  }

  async diff(access: RepoWithPermission, index: number, viewer: User | null, kind: 'diff' | 'patch', binary: boolean) {
    const { from, to } = await this.range(access, index, viewer);
    return diffText(this.dir(access), from, to, kind, binary);
  }

  async isMerged(access: RepoWithPermission, index: number, viewer: User | null): Promise<boolean> {
    return (await this.get(access, index, viewer)).pull.hasMerged;
  }
}
