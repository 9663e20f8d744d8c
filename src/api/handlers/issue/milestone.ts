// Milestones of a repository (Forgejo: routers/api/v1/repo/milestone.go).
import { toMilestone } from '../../../convert/issue.ts';
import type { Handler } from '../../route.ts';

export const issueGetMilestonesList: Handler<'issueGetMilestonesList'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.milestones.list(
    ctx.repo().repo,
    ctx.query.state,
    ctx.query.name,
    page,
  );
  ctx.sendPage(200, items.map(toMilestone), page, total);
};

export const issueCreateMilestone: Handler<'issueCreateMilestone'> = async (ctx) => {
  ctx.send(201, toMilestone(await ctx.app.services.milestones.create(ctx.repo().repo, ctx.body ?? {})));
};

export const issueGetMilestone: Handler<'issueGetMilestone'> = async (ctx) => {
  ctx.send(200, toMilestone(await ctx.app.services.milestones.get(ctx.repo().repo, String(ctx.params.id))));
};

export const issueEditMilestone: Handler<'issueEditMilestone'> = async (ctx) => {
  const milestone = await ctx.app.services.milestones.edit(ctx.repo().repo, String(ctx.params.id), ctx.body ?? {});
  ctx.send(200, toMilestone(milestone));
};

export const issueDeleteMilestone: Handler<'issueDeleteMilestone'> = async (ctx) => {
  await ctx.app.services.milestones.delete(ctx.repo().repo, String(ctx.params.id));
  ctx.send(204);
};
