// A repository's activity feed (Forgejo: routers/api/v1/repo/repo.go ListRepoActivityFeeds).
import { isPublicOnly } from '../../../auth/caller.ts';
import { toActivity } from '../../../convert/activity.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoListActivityFeeds: Handler<'repoListActivityFeeds'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgFeeds.listForRepo(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.repo().repo,
    ctx.query.date,
    page,
  );
  const view = userView(ctx);
  ctx.sendPage(
    200,
    items.map((entry) => toActivity(entry, view)),
    page,
    total,
  );
};
