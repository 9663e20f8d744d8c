// Branches of a repository (Forgejo: routers/api/v1/repo/branch.go).
import { toBranch } from '../../../convert/git-ref.ts';
import { canWriteCode } from '../../../domain/access/repo-permission.ts';
import type { BranchRef } from '../../../infra/git/refs.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';

/** Branches with their protection and whether the caller may push to each. */
async function present(ctx: AnyRequestContext, branches: BranchRef[]) {
  const { repo, permission } = ctx.repo();
  const canWrite = ctx.caller !== null && (ctx.caller.user.isAdmin || canWriteCode(permission));
  const names = branches.map((branch) => branch.name);
  const protection = await ctx.app.services.branchProtections.forBranches(
    ctx.caller?.user ?? null,
    repo,
    names,
    canWrite,
  );
  return branches.map((branch) => {
    const { rule, canPush } = protection.get(branch.name)!;
    return toBranch(branch, ctx.app.settings.server.ROOT_URL, repo, { canPush, canMerge: canWrite }, rule);
  });
}

export const repoListBranches: Handler<'repoListBranches'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items: branches, total } = await ctx.app.services.repoBranches.list(ctx.repo().repo, page);
  ctx.sendPage(200, await present(ctx, branches), page, total);
};

export const repoGetBranch: Handler<'repoGetBranch'> = async (ctx) => {
  const branch = await ctx.app.services.repoBranches.get(ctx.repo().repo, ctx.params.branch);
  ctx.send(200, (await present(ctx, [branch]))[0]);
};

export const repoCreateBranch: Handler<'repoCreateBranch'> = async (ctx) => {
  const { new_branch_name: name, old_branch_name: fromBranch, old_ref_name: fromRef } = ctx.body;
  const branch = await ctx.app.services.repoBranches.create(ctx.doer(), ctx.repo().repo, { name, fromBranch, fromRef });
  ctx.send(201, (await present(ctx, [branch]))[0]);
};

export const repoDeleteBranch: Handler<'repoDeleteBranch'> = async (ctx) => {
  await ctx.app.services.repoBranches.delete(ctx.repo().repo, ctx.params.branch);
  ctx.send(204);
};
