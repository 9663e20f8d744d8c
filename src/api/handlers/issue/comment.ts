// Comments of issues (Forgejo: routers/api/v1/repo/issue_comment.go).
import { toComment } from '../../../convert/issue.ts';
import type { CommentView } from '../../../services/issue-comment.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { userView } from '../../view.ts';

const shown = (ctx: AnyRequestContext) => {
  const view = userView(ctx);
  const { repo } = ctx.repo();
  return ({ comment, issue, poster }: CommentView) => toComment(comment, poster, issue, repo, view);
};

export const issueGetComments: Handler<'issueGetComments'> = async (ctx) => {
  const comments = await ctx.app.services.issueComments.listOfIssue(
    ctx.repo(),
    ctx.params.index,
    ctx.caller?.user ?? null,
    ctx.query.since,
    ctx.query.before,
  );
  ctx.send(200, comments.map(shown(ctx)));
};

export const issueGetRepoComments: Handler<'issueGetRepoComments'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.issueComments.listOfRepo(
    ctx.repo(),
    ctx.caller?.user ?? null,
    ctx.query,
    page,
  );
  ctx.sendPage(200, items.map(shown(ctx)), page, total);
};

export const issueGetComment: Handler<'issueGetComment'> = async (ctx) => {
  const found = await ctx.app.services.issueComments.get(ctx.repo(), ctx.params.id, ctx.caller?.user ?? null);
  if (!found) return ctx.send(204);
  ctx.send(200, shown(ctx)(found));
};

export const issueEditComment: Handler<'issueEditComment'> = async (ctx) => {
  const found = await ctx.app.services.issueComments.edit(ctx.repo(), ctx.params.id, ctx.doer(), ctx.body.body);
  if (!found) return ctx.send(204);
  ctx.send(200, shown(ctx)(found));
};

export const issueEditCommentDeprecated: Handler<'issueEditCommentDeprecated'> = async (ctx) => {
  const found = await ctx.app.services.issueComments.edit(ctx.repo(), ctx.params.id, ctx.doer(), ctx.body.body);
  if (!found) return ctx.send(204);
  ctx.send(200, shown(ctx)(found));
};

const remove = async (ctx: AnyRequestContext, id: number) => {
  await ctx.app.services.issueComments.delete(ctx.repo(), id, ctx.doer());
};

export const issueDeleteComment: Handler<'issueDeleteComment'> = async (ctx) => {
  await remove(ctx, ctx.params.id);
  ctx.send(204);
};

export const issueDeleteCommentDeprecated: Handler<'issueDeleteCommentDeprecated'> = async (ctx) => {
  await remove(ctx, ctx.params.id);
  ctx.send(204);
};
