// Labels of a repository (Forgejo: routers/api/v1/repo/label.go).
import { toIssueLabel } from '../../../convert/issue.ts';
import { parseLabelSort } from '../../../domain/label.ts';
import type { Handler } from '../../route.ts';

export const issueListLabels: Handler<'issueListLabels'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repo } = ctx.repo();
  const sort = parseLabelSort(ctx.req.query.sort);
  const { items, total } = await ctx.app.services.labels.list({ repoId: repo.id }, sort, page);
  const rootUrl = ctx.app.settings.server.ROOT_URL;
  ctx.sendPage(
    200,
    items.map((label) => toIssueLabel(label, repo, rootUrl)),
    page,
    total,
  );
};

export const issueCreateLabel: Handler<'issueCreateLabel'> = async (ctx) => {
  const { repo } = ctx.repo();
  const label = await ctx.app.services.labels.create({ repoId: repo.id }, ctx.body);
  ctx.send(201, toIssueLabel(label, repo, ctx.app.settings.server.ROOT_URL));
};

export const issueGetLabel: Handler<'issueGetLabel'> = async (ctx) => {
  const { repo } = ctx.repo();
  const label = await ctx.app.services.labels.get({ repoId: repo.id }, String(ctx.params.id));
  ctx.send(200, toIssueLabel(label, repo, ctx.app.settings.server.ROOT_URL));
};

export const issueEditLabel: Handler<'issueEditLabel'> = async (ctx) => {
  const { repo } = ctx.repo();
  const label = await ctx.app.services.labels.edit({ repoId: repo.id }, ctx.params.id, ctx.body ?? {});
  ctx.send(200, toIssueLabel(label, repo, ctx.app.settings.server.ROOT_URL));
};

export const issueDeleteLabel: Handler<'issueDeleteLabel'> = async (ctx) => {
  await ctx.app.services.labels.delete({ repoId: ctx.repo().repo.id }, ctx.params.id);
  ctx.send(204);
};
