// git smart HTTP: /{owner}/{repo}.git/info/refs, git-upload-pack, git-receive-pack.
import { isPublicOnly } from '../../../auth/caller.ts';
import { ForbiddenError } from '../../../errors.ts';
import { anonymousCloneLimit } from '../../../git/concurrency-limit.ts';
import { advertiseRefs, type GitService, refuseRpc, serviceRpc } from '../../../git/smart-http.ts';
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
  const limits = ctx.app.settings.git;
  // Anonymous means without credentials: git sends them only when challenged, so for a public repository too.
  const release = ctx.caller ? () => undefined : anonymousCloneLimit(limits).tryAcquire();
  if (!release) return refuseRpc(ctx.res, 'upload-pack', 'too many anonymous clones at once; try again later');
  try {
    await serviceRpc(ctx.req, ctx.res, dir, 'upload-pack', { maxRequestBytes: limits.HTTP_MAX_REQUEST_BUFFER });
  } finally {
    release();
  }
};

export const gitReceivePack: Handler<'gitReceivePack'> = async (ctx) => {
  const { repo, dir } = await gitTarget(ctx, 'receive-pack');
  const push = await ctx.app.services.pushes.beginPush(ctx.doer(), repo, dir);
  const { git, 'git.config': gitConfig } = ctx.app.settings;
  const maxPackBytes = gitConfig['RECEIVE.MAXINPUTSIZE'];
  // The pack is bounded by git; the commands before it by the request buffer.
  const maxRequestBytes = maxPackBytes > 0 ? maxPackBytes + git.HTTP_MAX_REQUEST_BUFFER : 0;
  await serviceRpc(ctx.req, ctx.res, dir, 'receive-pack', { maxRequestBytes, maxPackBytes }, () => push.finish());
};
