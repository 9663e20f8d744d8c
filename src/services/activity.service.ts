// Records activity. One action is written to the feed of the actor, of the repository owner (when that is
// another user or an organization) and of each watcher, so a feed is one indexed query on Action.userId.
import type { ActivityRepository } from '../db/activity.repository.ts';
import { type ActivityOpType, opTypeNumber } from '../domain/activity.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewActivity {
  op: ActivityOpType;
  actorId: number;
  repo: { id: number; ownerId: number; isPrivate: boolean };
  content?: string;
  refName?: string;
  commentId?: number;
}

export class ActivityService {
  private readonly activities: ActivityRepository;

  constructor(deps: ServiceDeps) {
    this.activities = deps.repos.activity;
  }

  /** `activities` writes inside a caller's transaction when given. */
  async record(activity: NewActivity, activities = this.activities): Promise<void> {
    const watcherIds = await activities.feedWatcherIds(activity.repo.id);
    const feedOwners = new Set<number>([activity.actorId, activity.repo.ownerId, ...watcherIds]);
    await activities.createMany(
      [...feedOwners].map((userId) => ({
        userId,
        opType: opTypeNumber(activity.op),
        actUserId: activity.actorId,
        repoId: activity.repo.id,
        commentId: activity.commentId ?? 0,
        refName: activity.refName ?? '',
        isPrivate: activity.repo.isPrivate,
        content: activity.content ?? '',
      })),
    );
  }
}
