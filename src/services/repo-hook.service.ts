// A repository's webhooks (Forgejo: routers/api/v1/repo/hook.go): the rules of hooks are WebhookService's; this
// adds the test delivery, a push of the branch's head commit sent to the one hook.
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { branchCommit } from '../infra/git/compare.ts';
import { readCommit } from '../infra/git/push-commits.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { WebhookService } from './webhook.service.ts';

export class RepoHookService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly webhooks: WebhookService,
    private readonly hookEvents: HookEventsService,
  ) {}

  /** `ref`: the branch to report, the default branch when empty. */
  async test(repo: RepoWithOwner, id: number, doer: User, ref: string | undefined): Promise<void> {
    const hook = await this.webhooks.getRepo(repo, id);
    const branch = (ref ?? '').trim() || repo.defaultBranch;
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    const sha = await branchCommit(dir, branch);
    const commit = sha ? await readCommit(dir, sha) : null;
    await this.deps.transactions.run((repos) => this.hookEvents.testPush(repos, hook.id, repo, doer, branch, commit));
  }
}
