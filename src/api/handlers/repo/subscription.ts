// GET /repos/{owner}/{repo}/subscription: whether the caller watches the repository.
import { repoApiUrl } from '../../../convert/repository.ts';
import { toWatchInfo } from '../../../convert/watch.ts';
import type { Handler } from '../../route.ts';

export const userCurrentCheckSubscription: Handler<'userCurrentCheckSubscription'> = async (ctx) => {
  const { repo } = ctx.repo();
  const createdAt = await ctx.app.services.repoSubscriptions.watchedSince(ctx.doer(), repo);
  ctx.send(200, toWatchInfo(repoApiUrl(ctx.app.settings.server.ROOT_URL, repo), createdAt));
};
