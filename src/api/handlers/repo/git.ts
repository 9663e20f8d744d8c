// git smart HTTP: /{owner}/{repo}.git/info/refs, git-upload-pack, git-receive-pack. Access is the routes' rule.
import { ForbiddenError } from '../../../domain/errors.ts';
import { anonymousCloneLimit } from '../../../infra/git/anonymous-clone-limit.ts';
import { protectionEnv, protectionHooksPath } from '../../../infra/git/protection-hook.ts';
import { overQuotaHooksPath } from '../../../infra/git/quota-hook.ts';
import { advertiseRefs, type GitService, refuseRpc, serviceRpc } from '../../../infra/git/smart-http.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';

export const gitInfoRefs: Handler<'gitInfoRefs'> = async (ctx) => {
  const service = ctx.query.service?.replace(/^git-/, '') as GitService | undefined;
  if (!service) throw new ForbiddenError('only the smart HTTP protocol is served');
  const { repo } = ctx.repo();
  if (service === 'receive-pack') ctx.app.services.repositories.assertPushable(repo);
  await advertiseRefs(ctx.req, ctx.res, ctx.app.services.repositories.gitDirectory(repo), service);
};

export const gitUploadPack: Handler<'gitUploadPack'> = async (ctx) => {
  const dir = ctx.app.services.repositories.gitDirectory(ctx.repo().repo);
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

/**
 * The pre-receive hook a push runs, if any: branch and tag protection when the repository has rules (which then also
 * refuses what the owner's quota does not allow), else the over-quota hook when the owner is over quota, else none.
 */
async function receiveHooks(ctx: AnyRequestContext, withinQuota: boolean) {
  const dataDir = ctx.app.settings.server.APP_DATA_PATH;
  const { branchProtections, tagProtections } = ctx.app.services;
  const [branches, tags] = await Promise.all([
    branchProtections.pushPolicy(ctx.doer(), ctx.repo().repo),
    tagProtections.pushLines(ctx.doer(), ctx.repo().repo),
  ]);
  const policy = [...(branches ?? []), ...tags];
  if (policy.length > 0) {
    const env = { ANVIL_PROTECTION: protectionEnv(policy), ...(withinQuota ? {} : { ANVIL_QUOTA_EXCEEDED: '1' }) };
    return { hooksPath: protectionHooksPath(dataDir), env };
  }
  return { hooksPath: withinQuota ? undefined : overQuotaHooksPath(dataDir), env: undefined };
}

export const gitReceivePack: Handler<'gitReceivePack'> = async (ctx) => {
  const { repositories, pushes } = ctx.app.services;
  const { repo } = ctx.repo();
  repositories.assertPushable(repo);
  const dir = repositories.gitDirectory(repo);
  const push = await pushes.beginPush(ctx.doer(), repo, dir);
  const { git, 'git.config': gitConfig } = ctx.app.settings;
  const maxPackBytes = gitConfig['RECEIVE.MAXINPUTSIZE'];
  // The pack is bounded by git; the commands before it by the request buffer.
  const maxRequestBytes = maxPackBytes > 0 ? maxPackBytes + git.HTTP_MAX_REQUEST_BUFFER : 0;
  // An owner over quota may only delete refs; git reports the refusal to the pusher and stores nothing. Within
  // it, the pack is stopped once it would take the owner past the limit, and held against concurrent writes
  // until the repository's new size is recorded.
  const { quota } = ctx.app.services;
  const withinQuota = await quota.isWithin(repo.owner, 'size:repos:all');
  const { hooksPath, env } = await receiveHooks(ctx, withinQuota);
  const leaf = repo.isPrivate ? 'reposPrivate' : 'reposPublic';
  const hold = withinQuota ? await quota.hold(repo.owner, 'size:repos:all', leaf) : undefined;
  try {
    const limits = { maxRequestBytes, maxPackBytes, hooksPath, packBudget: hold, env };
    await serviceRpc(ctx.req, ctx.res, dir, 'receive-pack', limits, () => push.finish());
  } finally {
    await hold?.release();
  }
};
