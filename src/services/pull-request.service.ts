// Pull requests between two branches of one repository (Forgejo: routers/api/v1/repo/pull.go CreatePullRequest,
// services/pull NewPullRequest). The pull request is an issue with isPull; it is opened in one transaction with
// its event, like any issue.
import { branchCommit, compareBranches } from '../infra/git/compare.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { User } from '../db/entities.ts';
import type { PullDetails } from '../db/pull-request.repository.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import type { IssueService, NewIssue } from './issue.service.ts';
import type { IssueLabelService } from './issue-label.service.ts';
import { canWriteIssue } from '../domain/access/content-visibility.ts';
import { ForbiddenError, PreconditionFailedError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewPullRequest extends Omit<NewIssue, 'closed' | 'title'> {
  head?: string;
  base?: string;
  title?: string;
}

export interface PullChanges {
  title?: string;
  body?: string;
  state?: string;
  base?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  labels?: number[];
}

export class PullRequestService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly hookEvents: HookEventsService,
    private readonly issueLabels: IssueLabelService,
  ) {}

  /**
   * Title, body, state, assignees, milestone as an issue's; labels replaced; a new base branch (Forgejo:
   * EditPullRequest). Answers nothing: the caller reads the pull request again.
   */
  async edit(access: RepoWithPermission, index: number, doer: User, changes: PullChanges): Promise<void> {
    const current = await this.issues.findReadable(access, index, doer);
    if (!current.isPull) throw new NotFoundError();
    const base = (changes.base ?? '').trim();
    if (base) await this.changeBase(access, current.id, doer, base);
    if (changes.labels !== undefined) await this.issueLabels.replace(access, index, doer, changes.labels);
    const { labels: _labels, base: _base, ...issueChanges } = changes;
    await this.issues.edit(access, index, doer, issueChanges);
  }

  private async changeBase(access: RepoWithPermission, issueId: number, doer: User, base: string): Promise<void> {
    // Per pull request, so not a guard's: only writers of pull requests move them.
    if (!canWriteIssue(access.permission, true, doer.isAdmin))
      throw new ForbiddenError('only writers of pull requests may change the base branch');
    const { repo } = access;
    const [pull] = await this.deps.repos.issues.listPulls([issueId]);
    if (!pull || pull.baseBranch === base) return;
    if (pull.hasMerged) throw new PreconditionFailedError('cannot change the base of a merged pull request');
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    const baseSha = await branchCommit(dir, base);
    if (!baseSha) throw new NotFoundError(`base branch does not exist: ${base}`);
    if (await this.deps.repos.pulls.findOpen(repo.id, pull.headBranch, base))
      throw new ConflictError(`pull request already exists for base branch ${base}`);
    const headSha = (await branchCommit(dir, pull.headBranch)) ?? pull.headCommitId;
    const { mergeBase } = await compareBranches(dir, baseSha, headSha);
    await this.deps.repos.pulls.update(pull.id, { baseBranch: base, mergeBase });
  }

  async create(
    access: RepoWithPermission,
    doer: User,
    input: NewPullRequest,
  ): Promise<Omit<PullDetails, 'repoDetails'>> {
    const { repo } = access;
    const head = this.headBranch(repo.ownerName, (input.head ?? '').trim());
    const base = (input.base ?? '').trim();
    if (!base) throw new ValidationError('[Base]: Required');
    if (!head) throw new ValidationError('[Head]: Required');
    if (!(input.title ?? '').trim()) throw new ValidationError('[Title]: Required');
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    const baseSha = await branchCommit(dir, base);
    if (!baseSha) throw new NotFoundError('BaseNotExist');
    const headSha = await branchCommit(dir, head);
    if (!headSha) throw new NotFoundError('HeadNotExist');
    const comparison = await compareBranches(dir, baseSha, headSha);
    if (head === base || comparison.ahead === 0) {
      throw new ValidationError('Invalid PullRequest: There are no changes between the head and the base');
    }
    const { issue, pull } = await this.deps.transactions.run(async (repos) => {
      const existing = await repos.pulls.findOpen(repo.id, head, base);
      if (existing) {
        throw new ConflictError(
          `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.issueId}, head_repo_id: ${repo.id}, base_repo_id: ${repo.id}, head_branch: ${head}, base_branch: ${base}]`,
        );
      }
      const prepared = await this.issues.prepareNew(repos, access, doer, { ...input, title: input.title! }, true);
      const issue = await this.issues.insert(repos, repo, doer, prepared, true);
      const pull = await repos.pulls.create({
        issueId: issue.id,
        baseRepoId: repo.id,
        headRepoId: repo.id,
        headBranch: head,
        baseBranch: base,
        mergeBase: comparison.mergeBase,
        headCommitId: headSha,
      });
      const [opened] = await this.issues.details([issue], repos);
      await this.hookEvents.pullRequest(repos, {
        repo,
        sender: doer,
        action: 'opened',
        number: issue.index,
        pullRequest: { ...opened, pull },
        baseSha,
      });
      return { issue, pull };
    });
    const [details] = await this.issues.details([issue]);
    return { ...details, pull, baseSha };
  }

  /** `branch` or `owner:branch`; only branches of the repository itself are supported. */
  private headBranch(ownerName: string, head: string): string {
    const colon = head.indexOf(':');
    if (colon < 0) return head;
    if (head.slice(0, colon).toLowerCase() !== ownerName.toLowerCase()) throw new NotFoundError('GetUserByName');
    return head.slice(colon + 1);
  }
}
