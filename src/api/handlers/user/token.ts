import { toAccessToken } from '../../../convert/access-token.ts';
import type { Handler } from '../../route.ts';

export const userCreateToken: Handler<'userCreateToken'> = async (ctx) => {
  const { token, secret } = await ctx.app.services.accessTokens.create(ctx.user(), ctx.body.name, ctx.body.scopes);
  ctx.send(201, toAccessToken(token, secret));
};

export const userGetTokens: Handler<'userGetTokens'> = async (ctx) => {
  const page = ctx.listOptions();
  const { tokens, total } = await ctx.app.services.accessTokens.list(ctx.user(), page);
  ctx.sendPage(
    200,
    tokens.map((token) => toAccessToken(token)),
    page,
    total,
  );
};

export const userDeleteAccessToken: Handler<'userDeleteAccessToken'> = async (ctx) => {
  await ctx.app.services.accessTokens.delete(ctx.user(), ctx.params.token);
  ctx.send(204);
};
