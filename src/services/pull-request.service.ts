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
import type { ServiceDeps } from './service-deps.ts';

export interface NewPullRequest extends Omit<NewIssue, 'closed' | 'title'> {
  head?: string;
  base?: string;
  title?: string;
}

export class PullRequestService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly hookEvents: HookEventsService,
  ) {}

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
