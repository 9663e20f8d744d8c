// A renamed user, organization or repository keeps answering under its old name, with 307 to the same URL
// under the current names, query kept (Forgejo: services/context/context_response.go RedirectToUser and
// services/context/repo.go RedirectToRepo). A path parameter naming an owner that does not exist follows the
// owner's redirect record; then, where {owner}/{repo} names a repository that does not exist under that owner,
// the repository's redirect record. Both combine into one answer.
import type { Request } from 'express';
import type { OperationInfo } from '../../generated/operations.ts';
import type { AppContext } from '../app-context.ts';
import type { User } from '../db/prisma.ts';

const OWNER_PARAMETERS = ['username', 'org', 'owner'] as const;
/** Where Forgejo looks a repository up with its redirects: the /repos/{owner}/{repo} API and git smart HTTP. */
const API_REPOSITORY_PATH = /^\/api\/v1\/repos\/\{owner\}\/\{repo\}(\/|$)/;
const GIT_REPOSITORY_PATH = /^\/\{owner\}\/\{repo\}\//;
/** git smart HTTP names the repository with a .git suffix ({repo} is "name.git"). */
const GIT_SUFFIX = /\.git$/i;

/** The URL to redirect to, or null when every owner and repository named in the path exists (or was never renamed). */
export async function ownerRedirectUrl(app: AppContext, operation: OperationInfo, req: Request): Promise<string | null> {
  const params = (req.openapi?.pathParams ?? {}) as Record<string, string>;
  const template = operation.path.split('/');
  const queryStart = req.url.indexOf('?');
  const query = queryStart >= 0 ? req.url.slice(queryStart) : '';
  const segments = (queryStart >= 0 ? req.url.slice(0, queryStart) : req.url).split('/');
  // The served path has the template's shape (normalised before routing), so segments line up.
  const replace = (name: string, value: string): boolean => {
    const index = template.indexOf(`{${name}}`);
    if (index < 0 || template.length !== segments.length) return false;
    segments[index] = encodeURIComponent(value);
    return true;
  };
  let redirected = false;
  let repoOwner: User | null = null;
  for (const name of OWNER_PARAMETERS) {
    const value = params[name];
    if (typeof value !== 'string' || value === '') continue;
    let owner = await app.db.hot.userByLowerName(value.toLowerCase());
    if (!owner) {
      owner = await app.services.users.renamedTo(value);
      if (!owner) continue;
      if (!replace(name, owner.name)) return null;
      redirected = true;
    }
    if (name === 'owner') repoOwner = owner;
  }
  const repoParam = params.repo;
  const gitPath = GIT_REPOSITORY_PATH.test(operation.path);
  if (repoOwner && typeof repoParam === 'string' && (gitPath || API_REPOSITORY_PATH.test(operation.path))) {
    const suffix = gitPath ? (GIT_SUFFIX.exec(repoParam)?.[0] ?? '') : '';
    const repoName = repoParam.slice(0, repoParam.length - suffix.length);
    if (repoName !== '' && !(await app.db.hot.repositoryExists(repoOwner.id, repoName.toLowerCase()))) {
      const current = await app.services.repositories.renamedTo(repoOwner.id, repoName);
      if (current) {
        if (!replace('owner', current.ownerName) || !replace('repo', current.name + suffix)) return null;
        redirected = true;
      }
    }
  }
  return redirected ? `${segments.join('/')}${query}` : null;
}
