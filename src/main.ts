// Entry point: settings ─▶ database (migrated) ─▶ app ─▶ listen ─▶ cron and webhook delivery; closes cleanly on SIGINT/SIGTERM.
import { createApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { ConfigError, loadSettings } from './config.ts';
import { startEventLoopProbe } from './event-loop-probe.ts';
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
  const { cron, hookDeliveries } = context.services;
  if (settings.cron.ENABLED) await cron.startScheduler();
  if (!settings.security.DISABLE_WEBHOOKS) hookDeliveries.startWorker();
  void context.services.repositories.refreshEmptyFromDisk().then(
    (count) => count > 0 && log.info({ repositories: count }, 'rows brought up to date with pushes a stop cut off'),
    (error) => log.error({ err: error }, 'bringing empty repositories up to date failed'),
  );
  const stop = () => {
    log.info('shutting down');
    // Running tasks and deliveries get the same 5 seconds as requests; a lease left behind expires on its own.
    const stopped = Promise.all([cron.stopScheduler(), hookDeliveries.stopWorker()]);
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
