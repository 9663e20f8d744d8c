// The cron task registry: Forgejo's task names, default schedules and default enablement, in Forgejo's list order
// (services/cron/tasks_basic.go, tasks_extended.go, tasks_actions.go). Every task is listed so GET /admin/cron
// matches Forgejo; tasks whose data Anvil does not have run as no-ops that say why in the log.
import type { Settings } from '../../config/settings.ts';
import type { Logger } from '../../infra/observability/logger.ts';
import type { HookDeliveryService } from '../hook-delivery.service.ts';
import type { ContainerBlobService } from '../../packages/container/blob.service.ts';
import type { MaintenanceResult, RepoMaintenanceService } from '../repo-maintenance.service.ts';

export interface TaskContext {
  readonly maintenance: RepoMaintenanceService;
  readonly hookDeliveries: HookDeliveryService;
  readonly containerBlobs: ContainerBlobService;
  readonly log: Logger;
}

export interface CronTaskDefinition {
  readonly name: string;
  /** Default schedule, Forgejo's [cron.<name>] SCHEDULE. */
  readonly schedule: string;
  /** Scheduled by default; a disabled task only runs when an admin starts it. */
  readonly enabled: boolean;
  run(context: TaskContext): Promise<MaintenanceResult | { deleted: number } | void>;
}

const DAY_SECS = 24 * 3600;

/** A task Forgejo has whose subject does not exist in Anvil: nothing to do, and the log says why. */
function nothingToDo(reason: string): CronTaskDefinition['run'] {
  return async ({ log }) => {
    log.debug({ reason }, 'cron task has nothing to do in Anvil');
  };
}

/** A task Forgejo has that Anvil does not perform: it runs, does nothing, and warns. */
function notPerformed(reason: string): CronTaskDefinition['run'] {
  return async ({ log }) => {
    log.warn({ reason }, 'cron task is not performed by Anvil');
  };
}

const task = (
  name: string,
  schedule: string,
  enabled: boolean,
  run: CronTaskDefinition['run'],
): CronTaskDefinition => ({ name, schedule, enabled, run });

/** The tasks registered with these settings, in list order (27 with the defaults). */
export function cronTasks(settings: Settings): CronTaskDefinition[] {
  const tasks: CronTaskDefinition[] = [];
  if (settings.mirror.ENABLED)
    tasks.push(task('update_mirrors', '@every 10m', true, ({ maintenance }) => maintenance.updateDueMirrors()));
  tasks.push(
    task('repo_health_check', '@midnight', true, ({ maintenance }) => maintenance.checkHealth()),
    task('check_repo_stats', '@midnight', true, ({ maintenance }) => maintenance.checkStats()),
    task(
      'archive_cleanup',
      '@midnight',
      true,
      nothingToDo('Anvil serves no repository archives, so there are none to expire'),
    ),
    task(
      'sync_external_users',
      '@midnight',
      true,
      nothingToDo('Anvil has no external (LDAP/OAuth) authentication source to synchronise'),
    ),
    task('deleted_branches_cleanup', '@midnight', true, nothingToDo('Anvil keeps no record of deleted branches')),
  );
  if (!settings.repository.DISABLE_MIGRATIONS) {
    tasks.push(
      task(
        'update_migration_poster_id',
        '@midnight',
        true,
        nothingToDo('migrations copy git data only, so no issue posters wait for an external login'),
      ),
    );
  }
  tasks.push(
    // [cron.cleanup_hook_task_table] CLEANUP_TYPE, NUMBER_TO_KEEP, OLDER_THAN
    task('cleanup_hook_task_table', '@midnight', true, ({ hookDeliveries }) => hookDeliveries.cleanupHistory()),
    // Anvil has no [packages] ENABLED switch, packages are always on; no cleanup rules, so only unreferenced
    // blobs older than a day go (Forgejo's default OLDER_THAN).
    // Container uploads not touched for a day go first, so the blobs only they used go in the same run.
    task('cleanup_packages', '@midnight', true, async ({ maintenance, containerBlobs }) => {
      await containerBlobs.deleteStale(new Date(Date.now() - DAY_SECS * 1000));
      return maintenance.deleteUnreferencedBlobs(DAY_SECS);
    }),
    task(
      'delete_inactive_accounts',
      '@annually',
      false,
      notPerformed('deleting deactivated accounts automatically is not supported; delete them through the admin API'),
    ),
    task(
      'delete_repo_archives',
      '@annually',
      false,
      nothingToDo('Anvil serves no repository archives, so there are none to delete'),
    ),
    task('git_gc_repos', '@every 72h', false, ({ maintenance }) => maintenance.collectGarbage()),
    task(
      'resync_all_sshkeys',
      '@every 72h',
      false,
      nothingToDo('Anvil runs no SSH server and writes no authorized_keys file'),
    ),
    task(
      'resync_all_sshprincipals',
      '@every 72h',
      false,
      nothingToDo('Anvil runs no SSH server and writes no authorized_principals file'),
    ),
    task(
      'resync_all_hooks',
      '@every 72h',
      false,
      nothingToDo('Anvil installs no git hooks in repositories; pushes are handled in-process'),
    ),
    task('reinit_missing_repos', '@every 72h', false, ({ maintenance }) => maintenance.reinitMissing()),
    task('delete_missing_repos', '@every 72h', false, ({ maintenance }) => maintenance.deleteMissing()),
    task(
      'delete_generated_repository_avatars',
      '@every 72h',
      false,
      nothingToDo('Anvil generates no repository avatars'),
    ),
    // Forgejo's default OLDER_THAN for this task is one year.
    task('delete_old_actions', '@every 168h', false, ({ maintenance }) => maintenance.deleteOldActions(365 * DAY_SECS)),
    task('update_checker', '@every 168h', true, nothingToDo('Anvil has no release feed to check for new versions')),
    task('delete_old_system_notices', '@every 168h', false, nothingToDo('Anvil keeps no system notices')),
    // gc_lfs is registered only with [server] LFS_START_SERVER, which Anvil does not offer.
    task(
      'rebuild_issue_indexer',
      '@annually',
      false,
      nothingToDo('Anvil searches issues in the database and keeps no separate index'),
    ),
    // Actions tasks (enabled with Actions, the default): Anvil stores runner tokens, variables and secrets but runs no jobs.
    task('stop_zombie_tasks', '@every 5m', true, nothingToDo('Anvil runs no Actions tasks')),
    task('stop_endless_tasks', '@every 30m', true, nothingToDo('Anvil runs no Actions tasks')),
    task('cancel_abandoned_jobs', '@every 6h', true, nothingToDo('Anvil runs no Actions jobs')),
    task('start_schedule_tasks', '@every 1m', true, nothingToDo('Anvil runs no scheduled Actions workflows')),
    task(
      'cleanup_actions',
      '@midnight',
      true,
      nothingToDo('Anvil records no Actions logs and no artifact expiry to clean up'),
    ),
  );
  return tasks;
}
