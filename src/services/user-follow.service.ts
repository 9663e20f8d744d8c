// Following users (Forgejo: routers/api/v1/user/follower.go, models/user/follow.go): follow, unfollow, check, and
// the lists of followers and followed, filtered to the accounts the viewer may see.
import type { User } from '../db/entities.ts';
import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { OwnerAccessService } from './owner-access.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class UserFollowService {
  private readonly access: OwnerAccessService;

  constructor(private readonly deps: ServiceDeps) {
    this.access = new OwnerAccessService(deps);
  }

  /** 404 when `user` does not follow `target`. */
  async check(user: User, target: User): Promise<void> {
    if (!(await this.deps.repos.follows.exists(user.id, target.id))) throw new NotFoundError();
  }

  /** 404 when `user` does not follow the account named `targetName`, or the viewer may not see that account. */
  async checkByName(viewer: User | null, user: User, targetName: string): Promise<void> {
    const target = await this.deps.repos.users.byLowerName(targetName.toLowerCase());
    if (!target || !(await this.access.canSee(viewer, target))) throw new NotFoundError('user does not exist');
    await this.check(user, target);
  }

  /** Following oneself or twice changes nothing; a block either way is 403 (Forgejo: ErrBlockedUser). */
  async follow(doer: User, target: User): Promise<void> {
    if (doer.id === target.id || (await this.deps.repos.follows.exists(doer.id, target.id))) return;
    const { orgBlocks } = this.deps.repos;
    if ((await orgBlocks.isBlocked(target.id, doer.id)) || (await orgBlocks.isBlocked(doer.id, target.id)))
      throw new ForbiddenError('user is blocked');
    await this.deps.transactions.run((tx) => tx.follows.create(doer.id, target.id));
  }

  async unfollow(doer: User, target: User): Promise<void> {
    await this.deps.transactions.run((tx) => tx.follows.delete(doer.id, target.id));
  }

  list(
    viewer: User | null,
    user: User,
    side: 'followers' | 'following',
    page: ListOptions,
  ): Promise<{ users: User[]; total: number }> {
    return this.deps.repos.follows.list(user.id, side, viewer, page.skip, page.limit);
  }
}
