// Entry point: settings ─▶ database (migrated) ─▶ app ─▶ listen ─▶ cron and webhook delivery; closes cleanly on SIGINT/SIGTERM.
import type { AddressInfo } from 'node:net';
import { createApp } from './http/app.ts';
import { bootstrap } from './app/bootstrap.ts';
import { ConfigError, loadSettings } from './config/settings.ts';
import { startEventLoopProbe } from './infra/observability/event-loop-probe.ts';
import { gracefulShutdown } from './app/graceful-shutdown.ts';
import { createHttpServer } from './http/http-server.ts';
import { createLogger } from './infra/observability/logger.ts';

async function main(): Promise<void> {
  const settings = loadSettings();
  const log = createLogger(settings.log.LEVEL);
  const context = await bootstrap(settings, log);
  const app = createApp(context);
  const server = createHttpServer(app, settings.server).listen(
    settings.server.HTTP_PORT,
    settings.server.HTTP_ADDR,
    () => {
      log.info(
        {
          url: settings.server.ROOT_URL,
          address: settings.server.HTTP_ADDR,
          port: (server.address() as AddressInfo).port,
        },
        'Anvil is listening',
      );
    },
  );
  startEventLoopProbe();
  const { cron, hookDeliveries, activityPub } = context.services;
  if (settings.cron.ENABLED) await cron.startScheduler();
  if (!settings.security.DISABLE_WEBHOOKS) hookDeliveries.startWorker();
  if (settings.federation.ENABLED) activityPub.startKeyWorker();
  void context.services.repoEdits.refreshEmptyFromDisk().then(
    (count) => count > 0 && log.info({ repositories: count }, 'rows brought up to date with pushes a stop cut off'),
    (error) => log.error({ err: error }, 'bringing empty repositories up to date failed'),
  );
  const stop = gracefulShutdown({
    server,
    log,
    hammerMs: settings.server.GRACEFUL_HAMMER_TIME,
    stopBackground: async () => {
      await Promise.all([
        cron.stopScheduler(),
        hookDeliveries.stopWorker(),
        activityPub.stopKeyWorker(),
        context.services.markup.close(),
      ]);
    },
    handBackLeases: async () => void (await Promise.all([cron.handBackLeases(), hookDeliveries.handBackLeases()])),
    closeDatabase: async () => {
      await context.jobQueue.close();
      await context.db.close();
    },
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
