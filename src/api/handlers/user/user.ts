// Users as anyone may look them up (Forgejo: routers/api/v1/user/user.go).
import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const userGetCurrent: Handler<'userGetCurrent'> = (ctx) => {
  ctx.send(200, toUser(ctx.doer(), userView(ctx)));
};

export const userGet: Handler<'userGet'> = (ctx) => {
  ctx.send(200, toUser(ctx.user(), userView(ctx)));
};

export const userSearch: Handler<'userSearch'> = async (ctx) => {
  const page = ctx.listOptions();
  const { users, total } = await ctx.app.services.userDirectory.search(ctx.caller?.user ?? null, ctx.query, page);
  const view = userView(ctx);
  ctx.sendPage(200, { ok: true, data: users.map((user) => toUser(user, view)) }, page, total);
};
