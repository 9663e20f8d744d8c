// git smart HTTP: /{owner}/{repo}.git/info/refs, git-upload-pack, git-receive-pack.
import { isPublicOnly } from '../../../auth/caller.ts';
import { ForbiddenError } from '../../../errors.ts';
import { advertiseRefs, type GitService, serviceRpc } from '../../../git/smart-http.ts';
import type { Handler, RequestContext } from '../../route.ts';

function gitTarget(ctx: RequestContext<'gitInfoRefs' | 'gitUploadPack' | 'gitReceivePack'>, service: GitService) {
  return ctx.app.services.repositories.forGit(ctx.caller?.user ?? null, ctx.params.owner, ctx.params.repo, service === 'receive-pack', isPublicOnly(ctx.caller));
}

export const gitInfoRefs: Handler<'gitInfoRefs'> = async (ctx) => {
  const service = ctx.query.service?.replace(/^git-/, '') as GitService | undefined;
  if (!service) throw new ForbiddenError('only the smart HTTP protocol is served');
  const { dir } = await gitTarget(ctx, service);
  await advertiseRefs(ctx.req, ctx.res, dir, service);
};

export const gitUploadPack: Handler<'gitUploadPack'> = async (ctx) => {
  const { dir } = await gitTarget(ctx, 'upload-pack');
  await serviceRpc(ctx.req, ctx.res, dir, 'upload-pack');
};

export const gitReceivePack: Handler<'gitReceivePack'> = async (ctx) => {
  const { repo, dir } = await gitTarget(ctx, 'receive-pack');
  const push = await ctx.app.services.pushes.beginPush(ctx.doer(), repo, dir);
  await serviceRpc(ctx.req, ctx.res, dir, 'receive-pack', () => push.finish());
};
