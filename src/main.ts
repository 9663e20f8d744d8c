// Entry point: settings ─▶ database (migrated) ─▶ app ─▶ listen ─▶ cron; closes cleanly on SIGINT/SIGTERM.
import { createApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { ConfigError, loadSettings } from './config.ts';
import { startEventLoopProbe } from './event-loop-probe.ts';
import { HookDeliveryWorker } from './jobs/hook-delivery-worker.ts';
import { CronScheduler } from './jobs/scheduler.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  const settings = loadSettings();
  const log = createLogger(settings.log.LEVEL);
  const context = await bootstrap(settings, log);
  const app = createApp(context);
  const server = app.listen(settings.server.HTTP_PORT, settings.server.HTTP_ADDR, () => {
    log.info({ url: settings.server.ROOT_URL, address: settings.server.HTTP_ADDR, port: settings.server.HTTP_PORT }, 'Anvil is listening');
  });
  startEventLoopProbe();
  const scheduler = settings.cron.ENABLED ? new CronScheduler(context.services.cron, log) : null;
  await scheduler?.start();
  const { webhook } = settings;
  const hooks = settings.security.DISABLE_WEBHOOKS
    ? null
    : new HookDeliveryWorker(context.services.hookDeliveries, log, webhook.QUEUE_POLL_INTERVAL, webhook.DELIVERY_CONCURRENCY);
  hooks?.start();
  const stop = () => {
    log.info('shutting down');
    // Running tasks and deliveries get the same 5 seconds as requests; a lease left behind expires on its own.
    const stopped = Promise.all([scheduler?.stop(), hooks?.stop()]);
    server.close(() => {
      stopped.finally(() => context.db.close()).finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
