// /admin/cron (Forgejo: routers/api/v1/admin/cron.go).
import { toCron } from '../../../convert/cron.ts';
import { setTotalCount } from '../../../http/pagination.ts';
import type { Handler } from '../../route.ts';

/** Everything when `page` is absent (or 0), else one page; X-Total-Count without Link, as Forgejo. */
export const adminCronList: Handler<'adminCronList'> = async (ctx) => {
  const tasks = (await ctx.app.services.cron.list()).map(toCron);
  setTotalCount(ctx.res, tasks.length);
  if (!ctx.query.page) return ctx.send(200, tasks);
  const { skip, limit } = ctx.listOptions();
  ctx.send(200, tasks.slice(skip, skip + limit));
};

export const adminCronRun: Handler<'adminCronRun'> = async (ctx) => {
  await ctx.app.services.cron.start(ctx.params.task);
  ctx.send(204);
};
