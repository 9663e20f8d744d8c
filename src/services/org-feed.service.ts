// The activity feed of an organization (Forgejo: routers/api/v1/org/org.go ListOrgActivityFeeds,
// models/activities/action.go GetFeeds). Rows are written by ActivityService, one per feed owner.
import type { FeedEntry, FeedFilter, OrgFeedRepository } from '../db/org-feed.repository.ts';
import type { Models, User } from '../db/entities.ts';
import { seesConcealedMembership } from '../domain/access/org-membership.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import { repoInclude } from '../db/repository-rows.repository.ts';
import type { RepositoryLookupService } from './repository-lookup.service.ts';

export type Action = Models.ActionModel;

/** The day `YYYY-MM-DD` as a UTC range, or null when the text is not such a date. */
function dayRange(date: string | undefined): { from: Date; to: Date } | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const start = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return null;
  return { from: start, to: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
}

/** Forgejo groups heatmap contributions by 15 minutes. */
const HEATMAP_BUCKET_SECONDS = 900;

export class OrgFeedService {
  private readonly feeds: OrgFeedRepository;

  constructor(
    deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
    private readonly repositories: RepositoryLookupService,
  ) {
    this.feeds = deps.repos.orgFeeds;
  }

  /**
   * Rule 20: private activity only for site admins and members. Every caller sees only rows of repositories whose
   * unit for the row it reads now (src/domain/access/content-visibility.ts). Actors who hide their activity or whom the
   * caller may not see are left out. Newest first; `date` keeps one day.
   */
  async list(
    viewer: User | null,
    publicOnly: boolean,
    org: User,
    date: string | undefined,
    page: ListOptions,
  ): Promise<Page<FeedEntry>> {
    // What the feed holds, not whether it answers: a guard cannot decide it.
    const listed = viewer !== null && (await this.ownerAccess.isOrgMember(org.id, viewer.id));
    const isMember = seesConcealedMembership(viewer, listed);
    return this.page(org.id, viewer, { reader: { viewer, publicOnly }, publicRowsOnly: !isMember }, date, page);
  }

  /** A team's feed (the caller's access to the team checked): private activity too, the team's repositories only. */
  async listForTeam(
    viewer: User,
    publicOnly: boolean,
    orgId: number,
    repoIds: number[],
    date: string | undefined,
    page: ListOptions,
  ): Promise<Page<FeedEntry>> {
    return this.page(orgId, viewer, { reader: { viewer, publicOnly }, repoIds }, date, page);
  }

  /**
   * A user's feed (Forgejo: ListUserActivityFeeds): private rows for the user and site admins only; a user who
   * keeps their activity private shows others nothing; `onlyPerformedBy` keeps the user's own actions.
   */
  async listForUser(
    viewer: User | null,
    publicOnly: boolean,
    user: User,
    onlyPerformedBy: boolean,
    date: string | undefined,
    page: ListOptions,
  ): Promise<Page<FeedEntry>> {
    const self = viewer !== null && (viewer.id === user.id || viewer.isAdmin);
    if (user.hideActivity && !self) return { items: [], total: 0 };
    const filter = {
      reader: { viewer, publicOnly },
      publicRowsOnly: !self,
      actorId: onlyPerformedBy ? user.id : undefined,
    };
    return this.page(user.id, viewer, filter, date, page);
  }

  /**
   * A user's contributions per quarter hour over the last year (Forgejo: GetUserHeatmapDataByUser): nothing for a
   * user who keeps their activity private, except to themselves and site admins.
   */
  async heatmap(
    viewer: User | null,
    publicOnly: boolean,
    user: User,
  ): Promise<Array<{ timestamp: number; contributions: number }>> {
    const self = viewer !== null && (viewer.id === user.id || viewer.isAdmin);
    if (user.hideActivity && !self) return [];
    const since = new Date(Date.now() - 366 * 24 * 60 * 60 * 1000);
    const times = await this.feeds.ownActionTimes(user.id, { viewer, publicOnly }, since);
    const buckets = new Map<number, number>();
    for (const time of times) {
      const bucket = Math.floor(time.getTime() / 1000 / HEATMAP_BUCKET_SECONDS) * HEATMAP_BUCKET_SECONDS;
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
    }
    return [...buckets].sort(([a], [b]) => a - b).map(([timestamp, contributions]) => ({ timestamp, contributions }));
  }

  /** A repository's feed: its rows as written to its owner's feed, as the caller may read them. */
  async listForRepo(
    viewer: User | null,
    publicOnly: boolean,
    repo: { id: number; ownerId: number },
    date: string | undefined,
    page: ListOptions,
  ): Promise<Page<FeedEntry>> {
    return this.page(repo.ownerId, viewer, { reader: { viewer, publicOnly }, repoIds: [repo.id] }, date, page);
  }

  /** One page of the organization's feed rows matching `filter`, newest first, without hidden actors. */
  private async page(
    orgId: number,
    viewer: User | null,
    filter: FeedFilter,
    date: string | undefined,
    page: ListOptions,
  ): Promise<Page<FeedEntry>> {
    const day = dayRange(date);
    // Per actor of the feed, so not a guard's: site admins see every actor.
    const excludedActorIds = viewer?.isAdmin ? undefined : await this.hiddenActors(orgId, viewer);
    const { items: actions, total } = await this.feeds.list(
      orgId,
      { ...filter, createdBetween: day ?? undefined, excludedActorIds },
      page,
    );
    const [users, repos] = await Promise.all([
      this.feeds.usersByIds([...new Set(actions.map((a) => a.actUserId))]),
      this.feeds.repositoriesByIds([...new Set(actions.map((a) => a.repoId).filter((id) => id > 0))], repoInclude),
    ]);
    const userById = new Map(users.map((u) => [u.id, u]));
    const repoById = new Map((await this.repositories.withExtras(repos)).map((r) => [r.repo.id, r]));
    return {
      items: actions.map((action) => ({
        action,
        actUser: userById.get(action.actUserId) ?? null,
        repo: repoById.get(action.repoId) ?? null,
      })),
      total,
    };
  }

  private async hiddenActors(orgId: number, viewer: User | null): Promise<number[]> {
    const actors = await this.feeds.actors(orgId);
    const hidden: number[] = [];
    for (const actor of actors) {
      if (viewer?.id === actor.id) continue;
      if (actor.hideActivity || !(await this.ownerAccess.canSee(viewer, actor))) hidden.push(actor.id);
    }
    return hidden;
  }
}
