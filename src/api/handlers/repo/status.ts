// Commit statuses (Forgejo: routers/api/v1/repo/status.go).
import { toCombinedStatus, toCommitStatus } from '../../../convert/commit-status.ts';
import type { StatusSort } from '../../../domain/commit-status.ts';
import type { StatusesWithCreators } from '../../../services/commit-status.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { userView } from '../../view.ts';
import { repoLinks } from './contents.ts';
import { presentRepo } from './present.ts';

function present(ctx: AnyRequestContext, statuses: Pick<StatusesWithCreators, 'rows' | 'creators'>) {
  const links = repoLinks(ctx);
  const view = userView(ctx);
  return statuses.rows.map((row) => toCommitStatus(row, statuses.creators.get(row.creatorId), links, view));
}

export const repoCreateStatus: Handler<'repoCreateStatus'> = async (ctx) => {
  const { state, target_url: targetUrl, description, context } = ctx.body;
  const { row, creator } = await ctx.app.services.commitStatuses.create(ctx.doer(), ctx.repo().repo, ctx.params.sha, {
    state,
    targetUrl,
    description,
    context,
  });
  ctx.send(201, toCommitStatus(row, creator, repoLinks(ctx), userView(ctx)));
};

async function listStatuses(ctx: AnyRequestContext, ref: string, query: { sort?: StatusSort; state?: string }) {
  const page = ctx.listOptions();
  const statuses = await ctx.app.services.commitStatuses.list(ctx.repo().repo, ref, query, page);
  return { page, total: statuses.total, body: present(ctx, statuses) };
}

export const repoListStatuses: Handler<'repoListStatuses'> = async (ctx) => {
  const { page, total, body } = await listStatuses(ctx, ctx.params.sha, ctx.query);
  ctx.sendPage(200, body, page, total);
};

export const repoListStatusesByRef: Handler<'repoListStatusesByRef'> = async (ctx) => {
  const { page, total, body } = await listStatuses(ctx, ctx.params.ref, ctx.query);
  ctx.sendPage(200, body, page, total);
};

export const repoGetCombinedStatusByRef: Handler<'repoGetCombinedStatusByRef'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repo, permission } = ctx.repo();
  const combined = await ctx.app.services.commitStatuses.combined(repo, ctx.params.ref, page);
  // Forgejo answers an empty object for a commit without statuses.
  if (combined.state === null) return ctx.send(200, {});
  const repository = await presentRepo(ctx, repo, permission);
  const body = toCombinedStatus(
    { sha: combined.sha, state: combined.state, statuses: present(ctx, combined), total: combined.total },
    repository,
    repoLinks(ctx),
  );
  ctx.sendPage(200, body, page, combined.total);
};
