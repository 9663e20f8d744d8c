// A user's activity feed (Forgejo: routers/api/v1/user/user.go ListUserActivityFeeds).
import { isPublicOnly } from '../../../auth/caller.ts';
import { toActivity } from '../../../convert/activity.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const userListActivityFeeds: Handler<'userListActivityFeeds'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgFeeds.listForUser(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.user(),
    ctx.query['only-performed-by'] === true,
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

export const userGetHeatmapData: Handler<'userGetHeatmapData'> = async (ctx) => {
  const heatmap = await ctx.app.services.orgFeeds.heatmap(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.user(),
  );
  ctx.send(200, heatmap);
};
