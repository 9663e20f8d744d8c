// What a server process does beside its requests: the cron scheduler, webhook deliveries, ActivityPub key
// generation, package indexes, and the housekeeping of a start. It starts a moment after the server listens: its
// first queries each cost Prisma's query compiler a first compile (about 100 ms of one core together), which would
// otherwise hold up the first requests of a (re)start.
import type { Logger } from '../infra/observability/logger.ts';
import type { AppContext } from './app-context.ts';

/** How long after listening the background work starts. */
export const BACKGROUND_START_DELAY_MS = 1000;

/** A start's housekeeping: credentials stored in clear before encryption are sealed; rows a stop cut off are mended. */
export async function startupHousekeeping(context: AppContext, log: Logger): Promise<void> {
  const encrypted = await context.repos.webhooks.encryptLegacyRows();
  if (encrypted > 0)
    log.info({ hooks: encrypted }, 'encrypted webhook secrets and authorization headers stored in clear');
  const refreshed = await context.services.repoEdits.refreshCutOffFromDisk();
  if (refreshed > 0) log.info({ repositories: refreshed }, 'rows brought up to date with pushes a stop cut off');
}

export interface BackgroundWork {
  /** Starts it after BACKGROUND_START_DELAY_MS. */
  startSoon(): void;
  /** Takes nothing new and waits for what runs; work not started yet never starts. */
  stop(): Promise<void>;
  /** Releases the leases of work still running here (a forced shutdown). */
  handBackLeases(): Promise<void>;
}

export function backgroundWork(context: AppContext, log: Logger): BackgroundWork {
  const { settings } = context;
  const { cron, hookDeliveries, activityPub, packageIndexes } = context.services;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const start = async () => {
    if (settings.cron.ENABLED) await cron.startScheduler();
    // The scheduler stops itself when the stop came while it started; the workers must not start after it.
    if (stopped) return;
    if (!settings.security.DISABLE_WEBHOOKS) hookDeliveries.startWorker();
    if (settings.federation.ENABLED) activityPub.startKeyWorker();
    packageIndexes.startWorker();
    await startupHousekeeping(context, log);
  };
  return {
    startSoon() {
      timer = setTimeout(
        () => void start().catch((error: unknown) => log.error({ err: error }, 'starting background work failed')),
        BACKGROUND_START_DELAY_MS,
      );
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([
        cron.stopScheduler(),
        hookDeliveries.stopWorker(),
        packageIndexes.stopWorker(),
        activityPub.stopKeyWorker(),
        context.services.markup.close(),
      ]);
    },
    async handBackLeases() {
      await Promise.all([cron.handBackLeases(), hookDeliveries.handBackLeases(), packageIndexes.handBackLeases()]);
    },
  };
}
