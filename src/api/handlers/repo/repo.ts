// Repositories: create, get, edit, delete, search, org listing, migrate, watch.
import { isPublicOnly } from '../../../auth/caller.ts';
import { repoApiUrl } from '../../../convert/repository.ts';
import { toWatchInfo } from '../../../convert/watch.ts';
import type { NewRepository } from '../../../services/repository-creation.service.ts';
import type { Handler, RequestContext } from '../../route.ts';
import { presentRepo, presentRepos } from './present.ts';

type CreateOp = 'createCurrentUserRepo' | 'createOrgRepo' | 'createOrgRepoDeprecated' | 'adminCreateRepo';

function newRepository(ctx: RequestContext<CreateOp>): NewRepository {
  const body = ctx.body;
  return {
    name: body.name,
    description: body.description,
    private: body.private,
    template: body.template,
    autoInit: body.auto_init,
    gitignores: body.gitignores,
    license: body.license,
    readme: body.readme,
    issueLabels: body.issue_labels,
    defaultBranch: body.default_branch,
    objectFormat: body.object_format_name,
    trustModel: body.trust_model,
  };
}

export const createCurrentUserRepo: Handler<'createCurrentUserRepo'> = async (ctx) => {
  const repo = await ctx.app.services.repoCreation.createForUser(ctx.doer(), newRepository(ctx));
  ctx.send(201, await presentRepo(ctx, repo));
};

export const createOrgRepo: Handler<'createOrgRepo'> = async (ctx) => {
  const repo = await ctx.app.services.repoCreation.create(ctx.doer(), ctx.org(), newRepository(ctx));
  ctx.send(201, await presentRepo(ctx, repo));
};

export const createOrgRepoDeprecated: Handler<'createOrgRepoDeprecated'> = async (ctx) => {
  const repo = await ctx.app.services.repoCreation.create(ctx.doer(), ctx.org(), newRepository(ctx));
  ctx.send(201, await presentRepo(ctx, repo));
};

export const adminCreateRepo: Handler<'adminCreateRepo'> = async (ctx) => {
  const repo = await ctx.app.services.repoCreation.create(ctx.doer(), ctx.user(), newRepository(ctx));
  ctx.send(201, await presentRepo(ctx, repo));
};

export const repoGet: Handler<'repoGet'> = async (ctx) => {
  const { repo, permission } = ctx.repo();
  ctx.send(200, await presentRepo(ctx, repo, permission));
};

export const repoGetByID: Handler<'repoGetByID'> = async (ctx) => {
  const { repo, permission } = ctx.repo();
  ctx.send(200, await presentRepo(ctx, repo, permission));
};

export const repoEdit: Handler<'repoEdit'> = async (ctx) => {
  const repo = await ctx.app.services.repoEdits.edit(ctx.doer(), ctx.repo().repo, ctx.body ?? {});
  ctx.send(200, await presentRepo(ctx, repo));
};

export const repoDelete: Handler<'repoDelete'> = async (ctx) => {
  await ctx.app.services.repoRemoval.delete(ctx.repo().repo, ctx.doer());
  ctx.send(204);
};

export const repoSearch: Handler<'repoSearch'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repos, total } = await ctx.app.services.repoSearch.search(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.query,
    page,
  );
  ctx.sendPage(200, { ok: true, data: await presentRepos(ctx, repos) }, page, total);
};

export const orgListRepos: Handler<'orgListRepos'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repos, total } = await ctx.app.services.repoSearch.listOrgRepos(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.org(),
    page,
  );
  ctx.sendPage(200, await presentRepos(ctx, repos), page, total);
};

export const repoMigrate: Handler<'repoMigrate'> = async (ctx) => {
  const { repo, permission } = await ctx.app.services.repoMigrations.migrate(ctx.doer(), ctx.body);
  ctx.send(201, await presentRepo(ctx, repo, permission));
};

export const userCurrentPutSubscription: Handler<'userCurrentPutSubscription'> = async (ctx) => {
  const { repo, createdAt } = await ctx.app.services.repoSubscriptions.watch(ctx.doer(), ctx.repo().repo);
  ctx.send(200, toWatchInfo(repoApiUrl(ctx.app.settings.server.ROOT_URL, repo), createdAt));
};

export const userCurrentDeleteSubscription: Handler<'userCurrentDeleteSubscription'> = async (ctx) => {
  await ctx.app.services.repoSubscriptions.unwatch(ctx.doer(), ctx.repo().repo);
  ctx.send(204);
};
