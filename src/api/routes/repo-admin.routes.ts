// Routes a repository's administrators use (Forgejo: routers/api/v1/api.go, the /keys, /tag_protections and
// /avatar groups under /repos/{owner}/{repo}, each behind reqToken() and reqAdmin()).
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoAdmin, reqToken } from '../guards.ts';
import { repoDeleteAvatar, repoUpdateAvatar } from '../handlers/repo/avatar.ts';
import { repoCreateKey, repoDeleteKey, repoGetKey, repoListKeys } from '../handlers/repo/deploy-key.ts';
import {
  repoCreateTagProtection,
  repoDeleteTagProtection,
  repoEditTagProtection,
  repoGetTagProtection,
  repoListTagProtection,
} from '../handlers/repo/tag-protection.ts';
import { route, type RouteGroup } from '../route.ts';

export type RepoAdminOperation =
  | 'repoCreateKey'
  | 'repoCreateTagProtection'
  | 'repoDeleteAvatar'
  | 'repoDeleteKey'
  | 'repoDeleteTagProtection'
  | 'repoEditTagProtection'
  | 'repoGetKey'
  | 'repoGetTagProtection'
  | 'repoListKeys'
  | 'repoListTagProtection'
  | 'repoUpdateAvatar';

const repoAdmin = [repoAssignment(), reqToken(), reqRepoAdmin()];

export const repoAdminRoutes: RouteGroup<RepoAdminOperation> = {
  repoCreateKey: route(repoAdmin, repoCreateKey),
  repoCreateTagProtection: route([...repoAdmin, mustNotBeArchived()], repoCreateTagProtection),
  repoDeleteAvatar: route(repoAdmin, repoDeleteAvatar),
  repoDeleteKey: route(repoAdmin, repoDeleteKey),
  repoDeleteTagProtection: route(repoAdmin, repoDeleteTagProtection),
  repoEditTagProtection: route([...repoAdmin, mustNotBeArchived()], repoEditTagProtection),
  repoGetKey: route(repoAdmin, repoGetKey),
  repoGetTagProtection: route(repoAdmin, repoGetTagProtection),
  repoListKeys: route(repoAdmin, repoListKeys),
  repoListTagProtection: route(repoAdmin, repoListTagProtection),
  repoUpdateAvatar: route(repoAdmin, repoUpdateAvatar),
};
