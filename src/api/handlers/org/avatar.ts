import type { Handler } from '../../route.ts';

export const orgUpdateAvatar: Handler<'orgUpdateAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.uploadOwnerAvatar(ctx.org(), ctx.body.image ?? '');
  ctx.send(204);
};

export const orgDeleteAvatar: Handler<'orgDeleteAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.deleteOwnerAvatar(ctx.org());
  ctx.send(204);
};
