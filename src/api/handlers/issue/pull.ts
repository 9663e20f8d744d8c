// Pull requests (Forgejo: routers/api/v1/repo/pull.go).
import { toPullRequest } from '../../../convert/pull-request.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoCreatePullRequest: Handler<'repoCreatePullRequest'> = async (ctx) => {
  const body = ctx.body ?? {};
  const access = ctx.repo();
  const details = await ctx.app.services.pulls.create(access, ctx.doer(), {
    head: body.head,
    base: body.base,
    title: body.title,
    body: body.body,
    labels: body.labels,
    assignee: body.assignee,
    assignees: body.assignees,
    milestone: body.milestone,
    due_date: body.due_date,
  });
  const [repoDetails] = await ctx.app.services.repositories.details(
    ctx.caller?.user ?? null,
    [access.repo],
    access.permission,
  );
  ctx.send(201, toPullRequest({ ...details, repoDetails }, userView(ctx)));
};
