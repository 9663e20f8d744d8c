import { isoTime } from '../../../convert/time.ts';
import type { Handler } from '../../route.ts';

export const orgListBlockedUsers: Handler<'orgListBlockedUsers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgBlocks.list(ctx.org(), page);
  ctx.sendPage(
    200,
    items.map((block) => ({ block_id: block.blockeeId, created_at: isoTime(block.createdAt) })),
    page,
    total,
  );
};

export const orgBlockUser: Handler<'orgBlockUser'> = async (ctx) => {
  await ctx.app.services.orgBlocks.block(ctx.org(), ctx.params.username);
  ctx.send(204);
};

export const orgUnblockUser: Handler<'orgUnblockUser'> = async (ctx) => {
  await ctx.app.services.orgBlocks.unblock(ctx.org(), ctx.params.username);
  ctx.send(204);
};
