// The caller's own SSH keys (Forgejo: routers/api/v1/user/key.go).
import { toPublicKey } from '../../../convert/public-key.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const userCurrentListKeys: Handler<'userCurrentListKeys'> = async (ctx) => {
  const page = ctx.listOptions();
  const doer = ctx.doer();
  const { keys, total } = await ctx.app.services.publicKeys.list(doer, ctx.query.fingerprint, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    keys.map((key) => toPublicKey(key, doer, view)),
    page,
    total,
  );
};

export const userCurrentPostKey: Handler<'userCurrentPostKey'> = async (ctx) => {
  const doer = ctx.doer();
  const key = await ctx.app.services.publicKeys.create(doer, ctx.body.title, ctx.body.key);
  ctx.send(201, toPublicKey(key, doer, userView(ctx)));
};

export const userCurrentDeleteKey: Handler<'userCurrentDeleteKey'> = async (ctx) => {
  await ctx.app.services.publicKeys.delete(ctx.doer(), ctx.params.id);
  ctx.send(204);
};

export const userCurrentGetKey: Handler<'userCurrentGetKey'> = async (ctx) => {
  const { key, owner } = await ctx.app.services.publicKeys.get(ctx.doer(), ctx.params.id);
  ctx.send(200, toPublicKey(key, owner, userView(ctx)));
};

export const userListKeys: Handler<'userListKeys'> = async (ctx) => {
  const page = ctx.listOptions();
  const user = ctx.user();
  const { keys, total } = await ctx.app.services.publicKeys.list(user, ctx.query.fingerprint, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    keys.map((key) => toPublicKey(key, user, view)),
    page,
    total,
  );
};
