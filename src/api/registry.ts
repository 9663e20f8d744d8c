// operationId ─▶ route. The `satisfies` clause makes the compiler refuse a contract operation without a route.
import type { OperationId } from '../../generated/operations.ts';
import type { Route } from './route.ts';
import { actionsRoutes } from './routes/actions.routes.ts';
import { avatarsRoutes } from './routes/avatars.routes.ts';
import { contentsRoutes } from './routes/contents.routes.ts';
import { collaborationRoutes } from './routes/collaboration.routes.ts';
import { gitRefsRoutes } from './routes/git-refs.routes.ts';
import { issuesRoutes } from './routes/issues.routes.ts';
import { miscRoutes } from './routes/misc.routes.ts';
import { notificationsRoutes } from './routes/notifications.routes.ts';
import { orgsRoutes } from './routes/orgs.routes.ts';
import { packagesRoutes } from './routes/packages.routes.ts';
import { protectionRoutes } from './routes/protection.routes.ts';
import { pullsRoutes } from './routes/pulls.routes.ts';
import { quotaRoutes } from './routes/quota.routes.ts';
import { releasesRoutes } from './routes/releases.routes.ts';
import { repoAdminRoutes } from './routes/repo-admin.routes.ts';
import { reposRoutes } from './routes/repos.routes.ts';
import { teamsRoutes } from './routes/teams.routes.ts';
import { usersRoutes } from './routes/users.routes.ts';

export const REGISTRY = {
  ...actionsRoutes,
  ...avatarsRoutes,
  ...contentsRoutes,
  ...collaborationRoutes,
  ...gitRefsRoutes,
  ...issuesRoutes,
  ...miscRoutes,
  ...notificationsRoutes,
  ...orgsRoutes,
  ...packagesRoutes,
  ...protectionRoutes,
  ...pullsRoutes,
  ...quotaRoutes,
  ...releasesRoutes,
  ...repoAdminRoutes,
  ...reposRoutes,
  ...teamsRoutes,
  ...usersRoutes,
} satisfies { readonly [Op in OperationId]: Route<Op> };

export function implementedCount(): { implemented: number; total: number } {
  const routes = Object.values(REGISTRY) as Route[];
  return { implemented: routes.filter((r) => r.implemented).length, total: routes.length };
}
