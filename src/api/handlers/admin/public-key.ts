// Public keys of a user, managed by an administrator (Forgejo: routers/api/v1/admin/user.go).
import { toPublicKey } from '../../../convert/public-key.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const adminCreatePublicKey: Handler<'adminCreatePublicKey'> = async (ctx) => {
  const { publicKeys } = ctx.app.services;
  const owner = ctx.user();
  const key = await publicKeys.create(owner, ctx.body.title, ctx.body.key);
  ctx.send(201, toPublicKey(key, owner, userView(ctx)));
};

export const adminDeleteUserPublicKey: Handler<'adminDeleteUserPublicKey'> = async (ctx) => {
  const { publicKeys } = ctx.app.services;
  const owner = ctx.user();
  await publicKeys.delete(owner, ctx.params.id);
  ctx.send(204);
};
