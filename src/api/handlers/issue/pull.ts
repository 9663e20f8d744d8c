// Pull requests (Forgejo: routers/api/v1/repo/pull.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import { toChangedFile, toCommit } from '../../../convert/pull-commit.ts';
import { toPullRequest } from '../../../convert/pull-request.ts';
import { NotFoundError } from '../../../domain/errors.ts';
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

export const repoListPullRequests: Handler<'repoListPullRequests'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.pullReads.list(
    ctx.repo(),
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.query,
    page,
  );
  const view = userView(ctx);
  ctx.sendPage(
    200,
    items.map((details) => toPullRequest(details, view)),
    page,
    total,
  );
};

export const repoGetPullRequest: Handler<'repoGetPullRequest'> = async (ctx) => {
  const details = await ctx.app.services.pullReads.get(ctx.repo(), ctx.params.index, ctx.caller?.user ?? null);
  ctx.send(200, toPullRequest(details, userView(ctx)));
};

export const repoGetPullRequestByBaseHead: Handler<'repoGetPullRequestByBaseHead'> = async (ctx) => {
  const { base, head } = ctx.params;
  const details = await ctx.app.services.pullReads.byBaseHead(ctx.repo(), base, head, ctx.caller?.user ?? null);
  ctx.send(200, toPullRequest(details, userView(ctx)));
};

export const repoEditPullRequest: Handler<'repoEditPullRequest'> = async (ctx) => {
  const body = ctx.body ?? {};
  const doer = ctx.doer();
  await ctx.app.services.pulls.edit(ctx.repo(), ctx.params.index, doer, {
    title: body.title,
    body: body.body,
    state: body.state,
    base: body.base,
    assignee: body.assignee,
    assignees: body.assignees,
    milestone: body.milestone,
    labels: body.labels,
  });
  const details = await ctx.app.services.pullReads.get(ctx.repo(), ctx.params.index, doer);
  ctx.send(201, toPullRequest(details, userView(ctx)));
};

export const repoGetPullRequestFiles: Handler<'repoGetPullRequestFiles'> = async (ctx) => {
  const page = ctx.listOptions();
  const access = ctx.repo();
  const viewer = ctx.caller?.user ?? null;
  const pull = await ctx.app.services.pullReads.get(access, ctx.params.index, viewer);
  const { items, total } = await ctx.app.services.pullReads.files(access, ctx.params.index, viewer, page);
  const rootUrl = ctx.app.settings.server.ROOT_URL;
  ctx.sendPage(
    200,
    items.map((file) => toChangedFile(file, access.repo, pull.pull.headCommitId, rootUrl)),
    page,
    total,
  );
};

export const repoGetPullRequestCommits: Handler<'repoGetPullRequestCommits'> = async (ctx) => {
  const page = ctx.listOptions();
  const access = ctx.repo();
  const { items, total } = await ctx.app.services.pullReads.commits(
    access,
    ctx.params.index,
    ctx.caller?.user ?? null,
    page,
  );
  const view = userView(ctx);
  ctx.sendPage(
    200,
    items.map((commit) => toCommit(commit, access.repo, new Map(), view)),
    page,
    total,
  );
};

export const repoDownloadPullDiffOrPatch: Handler<'repoDownloadPullDiffOrPatch'> = async (ctx) => {
  const text = await ctx.app.services.pullReads.diff(
    ctx.repo(),
    ctx.params.index,
    ctx.caller?.user ?? null,
    ctx.params.diffType,
    ctx.query.binary === true,
  );
  ctx.res.status(200).type('text/plain; charset=utf-8').send(text);
};

export const repoPullRequestIsMerged: Handler<'repoPullRequestIsMerged'> = async (ctx) => {
  if (!(await ctx.app.services.pullReads.isMerged(ctx.repo(), ctx.params.index, ctx.caller?.user ?? null)))
    throw new NotFoundError();
  ctx.send(204);
};

export const repoMergePullRequest: Handler<'repoMergePullRequest'> = async (ctx) => {
  const done = await ctx.app.services.pullAutoMerges.mergeOrSchedule(
    ctx.repo(),
    ctx.params.index,
    ctx.doer(),
    ctx.body,
  );
  ctx.send(done === 'scheduled' ? 201 : 200);
};

export const repoCancelScheduledAutoMerge: Handler<'repoCancelScheduledAutoMerge'> = async (ctx) => {
  await ctx.app.services.pullAutoMerges.cancel(ctx.repo(), ctx.params.index, ctx.doer());
  ctx.send(204);
};

export const repoGetCommitPullRequest: Handler<'repoGetCommitPullRequest'> = async (ctx) => {
  const details = await ctx.app.services.pullReads.byMergedCommit(ctx.repo(), ctx.params.sha, ctx.caller?.user ?? null);
  ctx.send(200, toPullRequest(details, userView(ctx)));
};
