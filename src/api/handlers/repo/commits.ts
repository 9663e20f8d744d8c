// Commits, comparisons and git objects (Forgejo: routers/api/v1/repo/commits.go, compare.go, tree.go, blob.go,
// git_ref.go).
import { toBlob, toCommit, toReference, toTree } from '../../../convert/commit.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { repoLinks } from './contents.ts';

export const repoGetSingleCommit: Handler<'repoGetSingleCommit'> = async (ctx) => {
  const withFiles = ctx.query.stat !== false || ctx.query.files !== false;
  const { commit, files } = await ctx.app.services.repoCommits.single(ctx.repo().repo, ctx.params.sha, withFiles);
  ctx.send(200, toCommit(commit, repoLinks(ctx), files));
};

export const repoGetAllCommits: Handler<'repoGetAllCommits'> = async (ctx) => {
  const page = ctx.listOptions();
  const { sha, path, not, stat, files } = ctx.query;
  const withFiles = stat !== false || files !== false;
  const { commits, total } = await ctx.app.services.repoCommits.list(
    ctx.repo().repo,
    { sha, path, not, withFiles },
    page,
  );
  const links = repoLinks(ctx);
  // Forgejo's own paging headers beside X-Total-Count and Link.
  const pageCount = Math.ceil(total / page.limit);
  ctx.res.setHeader('X-Total', String(total));
  ctx.res.setHeader('X-PerPage', String(page.limit));
  ctx.res.setHeader('X-Page', String(page.page));
  ctx.res.setHeader('X-PageCount', String(pageCount));
  ctx.res.setHeader('X-HasMore', String(page.page < pageCount));
  ctx.sendPage(
    200,
    commits.map((entry) => toCommit(entry.commit, links, entry.files)),
    page,
    total,
  );
};

export const repoCompareDiff: Handler<'repoCompareDiff'> = async (ctx) => {
  const { commits, total } = await ctx.app.services.repoCommits.compare(ctx.repo().repo, ctx.params.basehead);
  const links = repoLinks(ctx);
  ctx.send(200, { total_commits: total, commits: commits.map((commit) => toCommit(commit, links)) });
};

export const GetTree: Handler<'GetTree'> = async (ctx) => {
  const perPage = ctx.query.per_page;
  const page = ctx.listOptions(perPage && perPage > 0 ? perPage : 1000);
  const limited = perPage && perPage > 0 ? { ...page, limit: perPage, skip: (page.page - 1) * perPage } : page;
  const tree = await ctx.app.services.repoCommits.tree(ctx.repo().repo, ctx.params.sha, !!ctx.query.recursive, limited);
  ctx.send(200, toTree(tree, limited.page, repoLinks(ctx)));
};

export const GetBlob: Handler<'GetBlob'> = async (ctx) => {
  ctx.send(200, toBlob(await ctx.app.services.repoCommits.blob(ctx.repo().repo, ctx.params.sha), repoLinks(ctx)));
};

async function readRefs(ctx: AnyRequestContext, prefix?: string) {
  const refs = await ctx.app.services.repoCommits.refs(ctx.repo().repo, prefix);
  const links = repoLinks(ctx);
  return refs.map((ref) => toReference(ref, links));
}

export const repoListAllGitRefs: Handler<'repoListAllGitRefs'> = async (ctx) => ctx.send(200, await readRefs(ctx));

export const repoListGitRefs: Handler<'repoListGitRefs'> = async (ctx) =>
  ctx.send(200, await readRefs(ctx, ctx.params.ref));
