// Followers and followed users (Forgejo: routers/api/v1/user/follower.go).
import { toUser } from '../../../convert/user.ts';
import type { User } from '../../../db/entities.ts';
import type { Handler, RequestContext } from '../../route.ts';
import { userView } from '../../view.ts';

type ListOperation =
  'userCurrentListFollowers' | 'userCurrentListFollowing' | 'userListFollowers' | 'userListFollowing';

async function sendFollows(ctx: RequestContext<ListOperation>, user: User, side: 'followers' | 'following') {
  const page = ctx.listOptions();
  const { users, total } = await ctx.app.services.userFollows.list(ctx.caller?.user ?? null, user, side, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    users.map((u) => toUser(u, view)),
    page,
    total,
  );
}

export const userCurrentListFollowers: Handler<'userCurrentListFollowers'> = (ctx) =>
  sendFollows(ctx, ctx.doer(), 'followers');

export const userCurrentListFollowing: Handler<'userCurrentListFollowing'> = (ctx) =>
  sendFollows(ctx, ctx.doer(), 'following');

export const userListFollowers: Handler<'userListFollowers'> = (ctx) => sendFollows(ctx, ctx.user(), 'followers');

export const userListFollowing: Handler<'userListFollowing'> = (ctx) => sendFollows(ctx, ctx.user(), 'following');

export const userCurrentCheckFollowing: Handler<'userCurrentCheckFollowing'> = async (ctx) => {
  await ctx.app.services.userFollows.check(ctx.doer(), ctx.user());
  ctx.send(204);
};

export const userCheckFollowing: Handler<'userCheckFollowing'> = async (ctx) => {
  await ctx.app.services.userFollows.checkByName(ctx.caller?.user ?? null, ctx.user(), ctx.params.target);
  ctx.send(204);
};

export const userCurrentPutFollow: Handler<'userCurrentPutFollow'> = async (ctx) => {
  await ctx.app.services.userFollows.follow(ctx.doer(), ctx.user());
  ctx.send(204);
};

export const userCurrentDeleteFollow: Handler<'userCurrentDeleteFollow'> = async (ctx) => {
  await ctx.app.services.userFollows.unfollow(ctx.doer(), ctx.user());
  ctx.send(204);
};
