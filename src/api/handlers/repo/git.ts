// git smart HTTP: /{owner}/{repo}.git/info/refs, git-upload-pack, git-receive-pack.
import { ForbiddenError } from '../../../errors.ts';
import { advertiseRefs, type GitService, serviceRpc } from '../../../git/smart-http.ts';
import type { Handler } from '../../route.ts';

export const gitInfoRefs: Handler<'gitInfoRefs'> = async (ctx) => {
  const service = ctx.query.service?.replace(/^git-/, '') as GitService | undefined;
  if (!service) throw new ForbiddenError('only the smart HTTP protocol is served');
  const { repo } = ctx.repo();
  if (service === 'receive-pack') ctx.app.services.repositories.assertPushable(repo);
  await advertiseRefs(ctx.req, ctx.res, ctx.app.services.repositories.gitDirectory(repo), service);
};

export const gitUploadPack: Handler<'gitUploadPack'> = async (ctx) => {
  await serviceRpc(ctx.req, ctx.res, ctx.app.services.repositories.gitDirectory(ctx.repo().repo), 'upload-pack');
};

export const gitReceivePack: Handler<'gitReceivePack'> = async (ctx) => {
  const { repositories, pushes } = ctx.app.services;
  const { repo } = ctx.repo();
  repositories.assertPushable(repo);
  const dir = repositories.gitDirectory(repo);
  const push = await pushes.beginPush(ctx.doer(), repo, dir);
  await serviceRpc(ctx.req, ctx.res, dir, 'receive-pack', () => push.finish());
};
