import type { Handler } from '../../route.ts';

/** Avatars change rarely and their names change with their content; a day of caching is safe. */
function sendPng(ctx: Parameters<Handler<'getAvatar'>>[0] | Parameters<Handler<'getDefaultAvatar'>>[0], png: Buffer, maxAge: number): void {
  ctx.res.status(200).setHeader('Content-Type', 'image/png').setHeader('Cache-Control', `public, max-age=${maxAge}, no-transform`).end(png);
}

export const getAvatar: Handler<'getAvatar'> = async (ctx) => {
  sendPng(ctx, await ctx.app.services.avatars.stored(ctx.params.hash), 86400);
};

export const getDefaultAvatar: Handler<'getDefaultAvatar'> = async (ctx) => {
  sendPng(ctx, await ctx.app.services.avatars.generated(ctx.params.id), 3600);
};
