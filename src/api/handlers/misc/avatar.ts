import type { AvatarImage } from '../../../services/avatar.service.ts';
import type { Handler } from '../../route.ts';

/** Avatars change rarely and their names change with their content; a day of caching is safe. */
function sendPng(
  ctx: Parameters<Handler<'getAvatar'>>[0] | Parameters<Handler<'getDefaultAvatar'>>[0],
  image: AvatarImage,
  maxAge: number,
): void {
  const { req, res } = ctx;
  res.status(200).setHeader('Cache-Control', `public, max-age=${maxAge}, no-transform`).setHeader('ETag', image.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'image/png').end(image.png);
}

export const getAvatar: Handler<'getAvatar'> = async (ctx) => {
  sendPng(ctx, await ctx.app.services.avatars.stored(ctx.params.hash), 86400);
};

export const getDefaultAvatar: Handler<'getDefaultAvatar'> = async (ctx) => {
  sendPng(ctx, await ctx.app.services.avatars.generated(ctx.params.id), 3600);
};
