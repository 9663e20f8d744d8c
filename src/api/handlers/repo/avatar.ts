// A repository's avatar (Forgejo: routers/api/v1/repo/avatar.go).
import type { Handler } from '../../route.ts';

export const repoUpdateAvatar: Handler<'repoUpdateAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.uploadRepoAvatar(ctx.repo().repo, ctx.body?.image ?? '');
  ctx.send(204);
};

export const repoDeleteAvatar: Handler<'repoDeleteAvatar'> = async (ctx) => {
  await ctx.app.services.avatars.deleteRepoAvatar(ctx.repo().repo);
  ctx.send(204);
};
