// Who starred and who watches a repository (Forgejo: routers/api/v1/repo/star.go, repo/subscriber.go).
import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoListStargazers: Handler<'repoListStargazers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { users, total } = await ctx.app.services.repoStars.stargazers(ctx.repo().repo, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    users.map((user) => toUser(user, view)),
    page,
    total,
  );
};

export const repoListSubscribers: Handler<'repoListSubscribers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { users, total } = await ctx.app.services.repoSubscriptions.watchers(ctx.repo().repo, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    users.map((user) => toUser(user, view)),
    page,
    total,
  );
};
