// Records activity. One action is written to the feed of the actor, of the repository owner (when that is
// another user or an organization) and of each watcher, so a feed is one indexed query on Action.userId.
import { type ActivityOpType, opTypeNumber } from '../domain/activity.ts';
import type { ServiceDeps } from './index.ts';

export interface NewActivity {
  op: ActivityOpType;
  actorId: number;
  repo: { id: number; ownerId: number; isPrivate: boolean };
  content?: string;
  refName?: string;
  commentId?: number;
}

export class ActivityService {
  constructor(private readonly deps: ServiceDeps) {}

  async record(activity: NewActivity): Promise<void> {
    const { prisma } = this.deps.db;
    const watchers = await prisma.watch.findMany({ where: { repoId: activity.repo.id, mode: { in: [1, 3] } }, select: { userId: true } });
    const feedOwners = new Set<number>([activity.actorId, activity.repo.ownerId, ...watchers.map((w) => w.userId)]);
    await prisma.action.createMany({
      data: [...feedOwners].map((userId) => ({
        userId,
        opType: opTypeNumber(activity.op),
        actUserId: activity.actorId,
        repoId: activity.repo.id,
        commentId: activity.commentId ?? 0,
        refName: activity.refName ?? '',
        isPrivate: activity.repo.isPrivate,
        content: activity.content ?? '',
      })),
    });
  }
}
