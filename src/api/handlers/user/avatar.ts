// The caller's own avatar (Forgejo: routers/api/v1/user/avatar.go).
import type { Handler } from '../../route.ts';

export const userUpdateAvatar: Handler<'userUpdateAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.uploadOwnerAvatar(ctx.doer(), ctx.body.image ?? '');
  ctx.send(204);
};

export const userDeleteAvatar: Handler<'userDeleteAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.deleteOwnerAvatar(ctx.doer());
  ctx.send(204);
};
