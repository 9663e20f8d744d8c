// A push that moves the head branch of open pull requests updates them (Forgejo: services/pull AddTestPullRequestTask):
// their head commit is recorded and webhooks hear pull_request `synchronized`, in the push's transaction.
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { branchOfRef } from '../domain/hook-event.ts';
import type { RefChange } from '../domain/push.ts';
import { branchCommit } from '../infra/git/compare.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class PullSync {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly hookEvents: HookEventsService,
  ) {}

  readonly onPush = async (repos: Repositories, repo: RepoWithOwner, pusher: User, changes: RefChange[]) => {
    const moved = new Map<string, string>();
    for (const change of changes) {
      const branch = branchOfRef(change.ref);
      if (branch !== null && change.oldSha !== null && change.newSha !== null) moved.set(branch, change.newSha);
    }
    const pulls = await repos.pulls.listOpenFrom(repo.id, [...moved.keys()]);
    if (pulls.length === 0) return;
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    for (const pull of pulls) {
      const updated = await repos.pulls.update(pull.id, { headCommitId: moved.get(pull.headBranch)! });
      const issue = await repos.issues.findById(pull.issueId);
      if (!issue) continue;
      const [details] = await this.issues.details([issue], repos);
      await this.hookEvents.pullRequest(repos, {
        repo,
        sender: pusher,
        action: 'synchronized',
        number: issue.index,
        pullRequest: { ...details, pull: updated },
        baseSha: (await branchCommit(dir, pull.baseBranch)) ?? '',
      });
    }
  };
}
