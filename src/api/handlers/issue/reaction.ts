// Reactions to issues and comments (Forgejo: routers/api/v1/repo/issue_reaction.go).
import { toReaction } from '../../../convert/reaction.ts';
import type { ReactionView } from '../../../services/reaction.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { userView } from '../../view.ts';

const shown = (ctx: AnyRequestContext) => {
  const view = userView(ctx);
  return ({ reaction, user }: ReactionView) => toReaction(reaction, user, view);
};

export const issueGetIssueReactions: Handler<'issueGetIssueReactions'> = async (ctx) => {
  const page = ctx.listOptions();
  const on = { index: ctx.params.index };
  const { items, total } = await ctx.app.services.reactions.list(ctx.repo(), on, ctx.caller?.user ?? null, page);
  ctx.sendPage(200, items.map(shown(ctx)), page, total);
};

export const issuePostIssueReaction: Handler<'issuePostIssueReaction'> = async (ctx) => {
  const on = { index: ctx.params.index };
  const { view, created } = await ctx.app.services.reactions.add(ctx.repo(), on, ctx.doer(), ctx.body?.content ?? '');
  ctx.send(created ? 201 : 200, shown(ctx)(view));
};

export const issueDeleteIssueReaction: Handler<'issueDeleteIssueReaction'> = async (ctx) => {
  const on = { index: ctx.params.index };
  await ctx.app.services.reactions.remove(ctx.repo(), on, ctx.doer(), ctx.body?.content ?? '');
  ctx.send(200);
};

export const issueGetCommentReactions: Handler<'issueGetCommentReactions'> = async (ctx) => {
  const on = { commentId: ctx.params.id };
  const { items } = await ctx.app.services.reactions.list(ctx.repo(), on, ctx.caller?.user ?? null);
  ctx.send(200, items.map(shown(ctx)));
};

export const issuePostCommentReaction: Handler<'issuePostCommentReaction'> = async (ctx) => {
  const on = { commentId: ctx.params.id };
  const { view, created } = await ctx.app.services.reactions.add(ctx.repo(), on, ctx.doer(), ctx.body?.content ?? '');
  ctx.send(created ? 201 : 200, shown(ctx)(view));
};

export const issueDeleteCommentReaction: Handler<'issueDeleteCommentReaction'> = async (ctx) => {
  const on = { commentId: ctx.params.id };
  await ctx.app.services.reactions.remove(ctx.repo(), on, ctx.doer(), ctx.body?.content ?? '');
  ctx.send(200);
};
