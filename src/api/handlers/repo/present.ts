// Shapes repositories for an answer: their permissions and extras from the service, then the converter.
import { type ApiRepository, toRepository } from '../../../convert/repository.ts';
import type { RepoPermission, RepoWithOwner } from '../../../services/repo-permission.service.ts';
import type { AnyRequestContext } from '../../route.ts';
import { userView } from '../../view.ts';

export async function presentRepos(
  ctx: AnyRequestContext,
  repos: readonly RepoWithOwner[],
  permission?: RepoPermission,
): Promise<ApiRepository[]> {
  const details = await ctx.app.services.repositories.details(ctx.caller?.user ?? null, repos, permission);
  const view = userView(ctx);
  return details.map((detail) => toRepository(detail, view));
}

export async function presentRepo(
  ctx: AnyRequestContext,
  repo: RepoWithOwner,
  permission?: RepoPermission,
): Promise<ApiRepository> {
  return (await presentRepos(ctx, [repo], permission))[0];
}
