// Reviews of pull requests (Forgejo: routers/api/v1/repo/pull_review.go).
import { toPullReview } from '../../../convert/pull-commit.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

const pullHtml = (ctx: Parameters<Handler<'repoGetPullReview'>>[0], index: number) => {
  const { repo } = ctx.repo();
  return `${ctx.app.settings.server.ROOT_URL}${repo.ownerName}/${repo.name}/pulls/${index}`;
};

export const repoListPullReviews: Handler<'repoListPullReviews'> = async (ctx) => {
  const page = ctx.listOptions();
  const { page: found } = await ctx.app.services.pullReviews.list(
    ctx.repo(),
    ctx.params.index,
    ctx.caller?.user ?? null,
    page,
  );
  const view = userView(ctx);
  const html = pullHtml(ctx as never, ctx.params.index);
  ctx.sendPage(
    200,
    found.items.map(({ review, reviewer }) => toPullReview(review, reviewer, html, view)),
    page,
    found.total,
  );
};

export const repoGetPullReview: Handler<'repoGetPullReview'> = async (ctx) => {
  const { review } = await ctx.app.services.pullReviews.get(
    ctx.repo(),
    ctx.params.index,
    ctx.params.id,
    ctx.caller?.user ?? null,
  );
  ctx.send(200, toPullReview(review.review, review.reviewer, pullHtml(ctx, ctx.params.index), userView(ctx)));
};

export const repoCreatePullReview: Handler<'repoCreatePullReview'> = async (ctx) => {
  const body = ctx.body ?? {};
  const { review } = await ctx.app.services.pullReviews.create(ctx.repo(), ctx.params.index, ctx.doer(), {
    event: body.event,
    body: body.body,
    commit_id: body.commit_id,
  });
  ctx.send(200, toPullReview(review.review, review.reviewer, pullHtml(ctx as never, ctx.params.index), userView(ctx)));
};

export const repoCreatePullReviewRequests: Handler<'repoCreatePullReviewRequests'> = async (ctx) => {
  const { views } = await ctx.app.services.pullReviews.request(
    ctx.repo(),
    ctx.params.index,
    ctx.doer(),
    ctx.body?.reviewers ?? [],
  );
  const view = userView(ctx);
  const html = pullHtml(ctx as never, ctx.params.index);
  ctx.send(
    201,
    views.map(({ review, reviewer }) => toPullReview(review, reviewer, html, view)),
  );
};

export const repoDeletePullReviewRequests: Handler<'repoDeletePullReviewRequests'> = async (ctx) => {
  await ctx.app.services.pullReviews.unrequest(ctx.repo(), ctx.params.index, ctx.doer(), ctx.body?.reviewers ?? []);
  ctx.send(204);
};
