// The labels of an issue (Forgejo: routers/api/v1/repo/issue_label.go).
import { toIssueLabel } from '../../../convert/issue.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';

const shown = (ctx: AnyRequestContext, labels: Parameters<typeof toIssueLabel>[0][]) => {
  const { repo } = ctx.repo();
  return labels.map((label) => toIssueLabel(label, repo, ctx.app.settings.server.ROOT_URL));
};

export const issueGetLabels: Handler<'issueGetLabels'> = async (ctx) => {
  const labels = await ctx.app.services.issueLabels.list(ctx.repo(), ctx.params.index, ctx.caller?.user ?? null);
  ctx.send(200, shown(ctx, labels));
};

export const issueAddLabel: Handler<'issueAddLabel'> = async (ctx) => {
  const labels = await ctx.app.services.issueLabels.add(
    ctx.repo(),
    ctx.params.index,
    ctx.doer(),
    ctx.body?.labels ?? [],
  );
  ctx.send(200, shown(ctx, labels));
};

export const issueReplaceLabels: Handler<'issueReplaceLabels'> = async (ctx) => {
  const labels = await ctx.app.services.issueLabels.replace(
    ctx.repo(),
    ctx.params.index,
    ctx.doer(),
    ctx.body?.labels ?? [],
  );
  ctx.send(200, shown(ctx, labels));
};

export const issueClearLabels: Handler<'issueClearLabels'> = async (ctx) => {
  await ctx.app.services.issueLabels.clear(ctx.repo(), ctx.params.index, ctx.doer());
  ctx.send(204);
};

export const issueRemoveLabel: Handler<'issueRemoveLabel'> = async (ctx) => {
  await ctx.app.services.issueLabels.remove(ctx.repo(), ctx.params.index, ctx.doer(), ctx.params.id);
  ctx.send(204);
};
