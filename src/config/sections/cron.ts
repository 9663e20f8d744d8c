// [cron], [cron.cleanup_hook_task_table] in app.ini.
import { int, bool, duration, oneOf } from '../setting-types.ts';

export const cron = {
  ENABLED: bool(true),
} as const;

export const cronCleanupHookTaskTable = {
  CLEANUP_TYPE: oneOf('perwebhook', ['olderthan', 'perwebhook'] as const),
  OLDER_THAN: duration('168h'),
  NUMBER_TO_KEEP: int(10, 0),
} as const;
