// A repository's deploy keys (Forgejo: routers/api/v1/repo/key.go).
import { type ApiDeployKey, toDeployKey } from '../../../convert/deploy-key.ts';
import type { DeployKeyRow } from '../../../services/deploy-key.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { presentRepo } from './present.ts';

/** Forgejo adds the repository for site admins and for the repository's owner. */
async function present(ctx: AnyRequestContext, grants: DeployKeyRow[]): Promise<ApiDeployKey[]> {
  const { repo } = ctx.repo();
  const doer = ctx.doer();
  const keys = grants.map((grant) => toDeployKey(grant, ctx.app.settings.server.ROOT_URL, repo));
  if (!doer.isAdmin && doer.id !== repo.ownerId) return keys;
  const repository = await presentRepo(ctx, repo);
  return keys.map((key) => ({ ...key, repository }));
}

export const repoListKeys: Handler<'repoListKeys'> = async (ctx) => {
  const page = ctx.listOptions();
  const filter = { keyId: ctx.query.key_id, fingerprint: ctx.query.fingerprint };
  const { keys, total } = await ctx.app.services.deployKeys.list(ctx.repo().repo, filter, page);
  ctx.sendPage(200, await present(ctx, keys), page, total);
};

export const repoGetKey: Handler<'repoGetKey'> = async (ctx) => {
  const grant = await ctx.app.services.deployKeys.get(ctx.repo().repo, ctx.params.id);
  ctx.send(200, (await present(ctx, [grant]))[0]);
};

export const repoCreateKey: Handler<'repoCreateKey'> = async (ctx) => {
  const { title, key, read_only: readOnly } = ctx.body;
  const grant = await ctx.app.services.deployKeys.create(ctx.repo().repo, title, key, readOnly ?? false);
  ctx.send(201, toDeployKey(grant, ctx.app.settings.server.ROOT_URL, ctx.repo().repo));
};

export const repoDeleteKey: Handler<'repoDeleteKey'> = async (ctx) => {
  await ctx.app.services.deployKeys.delete(ctx.repo().repo, ctx.params.id);
  ctx.send(204);
};
