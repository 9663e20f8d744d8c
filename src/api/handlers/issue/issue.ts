// Issues: create, get, edit, comment, search (Forgejo: routers/api/v1/repo/issue.go, issue_comment.go).
import { isoTime } from '../../../convert/time.ts';
import { isPublicOnly } from '../../../auth/caller.ts';
import { toComment, toIssue } from '../../../convert/issue.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const issueCreateIssue: Handler<'issueCreateIssue'> = async (ctx) => {
  const body = ctx.body ?? { title: '' };
  const details = await ctx.app.services.issues.create(ctx.repo(), ctx.doer(), {
    title: body.title ?? '',
    body: body.body,
    labels: body.labels,
    assignee: body.assignee,
    assignees: body.assignees,
    milestone: body.milestone,
    closed: body.closed,
    due_date: body.due_date,
  });
  ctx.send(201, toIssue(details, userView(ctx)));
};

export const issueGetIssue: Handler<'issueGetIssue'> = async (ctx) => {
  const details = await ctx.app.services.issues.get(ctx.repo(), ctx.params.index, ctx.caller?.user ?? null);
  ctx.send(200, toIssue(details, userView(ctx)));
};

export const issueEditIssue: Handler<'issueEditIssue'> = async (ctx) => {
  const body = ctx.body ?? {};
  const details = await ctx.app.services.issues.edit(ctx.repo(), ctx.params.index, ctx.doer(), {
    title: body.title,
    body: body.body,
    state: body.state,
    assignee: body.assignee,
    assignees: body.assignees,
    milestone: body.milestone,
  });
  ctx.send(201, toIssue(details, userView(ctx)));
};

export const issueCreateComment: Handler<'issueCreateComment'> = async (ctx) => {
  const doer = ctx.doer();
  const { comment, issue, repo } = await ctx.app.services.issues.comment(
    ctx.repo(),
    ctx.params.index,
    doer,
    ctx.body?.body ?? '',
  );
  ctx.send(201, toComment(comment, doer, issue, repo, userView(ctx)));
};

export const issueSearchIssues: Handler<'issueSearchIssues'> = async (ctx) => {
  const page = ctx.listOptions(ctx.app.settings.ui.ISSUE_PAGING_NUM);
  const viewer = ctx.caller?.user ?? null;
  const { services } = ctx.app;
  const { items, total } = await services.issueSearch.search(viewer, isPublicOnly(ctx.caller), ctx.query, page);
  const details = await services.issues.details(items);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    details.map((detail) => toIssue(detail, view)),
    page,
    total,
  );
};

export const issueListIssues: Handler<'issueListIssues'> = async (ctx) => {
  const page = ctx.listOptions(ctx.app.settings.ui.ISSUE_PAGING_NUM);
  const { services } = ctx.app;
  const { items, total } = await services.issueSearch.listInRepo(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.repo().repo,
    ctx.query,
    page,
  );
  const details = await services.issues.details(items);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    details.map((detail) => toIssue(detail, view)),
    page,
    total,
  );
};

export const issueEditIssueDeadline: Handler<'issueEditIssueDeadline'> = async (ctx) => {
  const deadline = await ctx.app.services.issueDeadlines.set(
    ctx.repo(),
    ctx.params.index,
    ctx.doer(),
    ctx.body.due_date,
  );
  ctx.send(201, { due_date: deadline ? isoTime(deadline) : null });
};
