// Reactions to issues (commentId 0) and to comments, scoped by the issue.
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type ReactionRow = Prisma.ReactionModel;

export interface ReactionTarget {
  issueId: number;
  /** 0 for the issue itself. */
  commentId: number;
}

export class ReactionRepository {
  constructor(private readonly client: DbClient) {}

  async list(target: ReactionTarget, page?: ListOptions): Promise<{ items: ReactionRow[]; total: number }> {
    const where = { issueId: target.issueId, commentId: target.commentId };
    const [items, total] = await Promise.all([
      this.client.reaction.findMany({
        where,
        orderBy: { id: 'asc' },
        ...(page ? { skip: page.skip, take: page.limit } : {}),
      }),
      this.client.reaction.count({ where }),
    ]);
    return { items, total };
  }

  find(target: ReactionTarget, userId: number, type: string): Promise<ReactionRow | null> {
    return this.client.reaction.findFirst({ where: { ...target, userId, type } });
  }

  create(target: ReactionTarget, userId: number, type: string): Promise<ReactionRow> {
    return this.client.reaction.create({ data: { ...target, userId, type } });
  }

  async remove(target: ReactionTarget, userId: number, type: string): Promise<void> {
    await this.client.reaction.deleteMany({ where: { ...target, userId, type } });
  }
}
