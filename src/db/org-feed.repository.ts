// The activity feed rows of an owner (Action rows whose feed owner is the user or organization), with the
// users and repositories they name. A page holds only the rows its reader may see now (visibleActionsWhere).
import type { ListOptions } from '../domain/page.ts';
import { type ContentReader, visibleActionsWhere } from './content-access-filters.ts';
import type { DbClient, Prisma, User } from './prisma.ts';
import type { RepositoryRecordDetails } from './repository-details.ts';

type Action = Prisma.ActionModel;

/** One feed row with the user and repository it names, as a feed answer shows it. */
export interface FeedEntry {
  action: Action;
  actUser: User | null;
  repo: RepositoryRecordDetails | null;
}

/** Which feed rows a page shows; every field left out does not narrow it. */
export interface FeedFilter {
  /** Rows the reader may see now: of repositories whose unit for the row it reads. */
  reader: ContentReader;
  /** Rows of public repositories only (as they were when the row was written). */
  publicRowsOnly?: boolean;
  /** Rows of these repositories only. */
  repoIds?: number[];
  /** Rows created in [from, to). */
  createdBetween?: { from: Date; to: Date };
  excludedActorIds?: number[];
  /** Rows of this actor's actions only. */
  actorId?: number;
}

export class OrgFeedRepository {
  constructor(private readonly client: DbClient) {}

  /** One page of the organization's rows that are not deleted, newest first, and how many match. */
  async list(orgId: number, filter: FeedFilter, page: ListOptions): Promise<{ items: Action[]; total: number }> {
    const all: Prisma.ActionWhereInput[] = [
      { userId: orgId },
      { isDeleted: false },
      visibleActionsWhere(filter.reader),
    ];
    if (filter.publicRowsOnly) all.push({ isPrivate: false });
    if (filter.repoIds) all.push({ repoId: { in: filter.repoIds } });
    if (filter.createdBetween)
      all.push({ createdAt: { gte: filter.createdBetween.from, lt: filter.createdBetween.to } });
    if (filter.actorId !== undefined) all.push({ actUserId: filter.actorId });
    if (filter.excludedActorIds && filter.excludedActorIds.length > 0)
      all.push({ actUserId: { notIn: filter.excludedActorIds } });
    const where: Prisma.ActionWhereInput = { AND: all };
    const [items, total] = await Promise.all([
      this.client.action.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.action.count({ where }),
    ]);
    return { items, total };
  }

  /** When the owner acted in their own feed since `since`, as the reader may see it (for the heatmap). */
  async ownActionTimes(ownerId: number, reader: ContentReader, since: Date): Promise<Date[]> {
    const rows = await this.client.action.findMany({
      where: {
        AND: [
          { userId: ownerId, actUserId: ownerId, isDeleted: false, createdAt: { gte: since } },
          visibleActionsWhere(reader),
        ],
      },
      select: { createdAt: true },
    });
    return rows.map((row) => row.createdAt);
  }

  /** Everyone who acted in the organization's feed, deleted rows included. */
  async actors(orgId: number): Promise<User[]> {
    const rows = await this.client.action.findMany({
      where: { userId: orgId },
      distinct: ['actUserId'],
      select: { actUserId: true },
    });
    return this.client.user.findMany({ where: { id: { in: rows.map((row) => row.actUserId) } } });
  }

  async usersByIds(ids: number[]): Promise<User[]> {
    return this.client.user.findMany({ where: { id: { in: ids } } });
  }

  async repositoriesByIds<I extends Prisma.RepositoryInclude>(
    ids: number[],
    include: I,
  ): Promise<Prisma.RepositoryGetPayload<{ include: I }>[]> {
    return this.client.repository.findMany({ where: { id: { in: ids } }, include }) as Promise<
      Prisma.RepositoryGetPayload<{ include: I }>[]
    >;
  }
}
