// The service layer: the rules of the contract, one place each. Services never see req/res.
import type { PasswordHasher } from '../auth/password.ts';
import type { Settings } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { AccessTokenService } from './access-token.service.ts';
import { ActivityService } from './activity.service.ts';
import { OwnerAccessService } from './owner-access.service.ts';
import { RepoMigrationService } from './repo-migration.service.ts';
import { RepoPermissionService } from './repo-permission.service.ts';
import { RepoSearchService } from './repo-search.service.ts';
import { RepositoryService } from './repository.service.ts';
import { UnadoptedService } from './unadopted.service.ts';
import { SystemService } from './system.service.ts';
import { UserService } from './user.service.ts';

export interface ServiceDeps {
  readonly settings: Settings;
  readonly db: Database;
  readonly log: Logger;
  readonly passwords: PasswordHasher;
}

export function createServices(deps: ServiceDeps) {
  const activity = new ActivityService(deps);
  const ownerAccess = new OwnerAccessService(deps);
  const repoPermissions = new RepoPermissionService(deps);
  const repositories = new RepositoryService(deps, activity, repoPermissions);
  return {
    system: new SystemService(deps),
    accessTokens: new AccessTokenService(deps),
    activity,
    users: new UserService(deps),
    ownerAccess,
    repoPermissions,
    repositories,
    repoSearch: new RepoSearchService(deps, repoPermissions, ownerAccess),
    repoMigrations: new RepoMigrationService(deps, repositories),
    unadopted: new UnadoptedService(deps, repositories),
  };
}

export type Services = ReturnType<typeof createServices>;
