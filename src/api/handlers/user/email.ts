// The caller's own e-mail addresses (Forgejo: routers/api/v1/user/email.go).
import { toEmail } from '../../../convert/email.ts';
import type { Handler } from '../../route.ts';

export const userListEmails: Handler<'userListEmails'> = async (ctx) => {
  ctx.send(200, (await ctx.app.services.userEmails.listOwn(ctx.doer())).map(toEmail));
};

export const userAddEmail: Handler<'userAddEmail'> = async (ctx) => {
  const added = await ctx.app.services.userEmails.add(ctx.doer(), ctx.body?.emails ?? []);
  ctx.send(201, added.map(toEmail));
};

export const userDeleteEmail: Handler<'userDeleteEmail'> = async (ctx) => {
  await ctx.app.services.userEmails.remove(ctx.doer(), ctx.body?.emails ?? []);
  ctx.send(204);
};
