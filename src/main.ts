// Entry point: arguments ─▶ settings (all validated) ─▶ preflight ─▶ database (migrated) ─▶ app ─▶ listen ─▶ (a moment
// later) cron, webhook delivery and the start's housekeeping; closes cleanly on SIGINT/SIGTERM, at once on the second.
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type * as HttpApp from './http/app.ts';
import type * as Bootstrap from './app/bootstrap.ts';
import { ConfigError, loadSettings } from './config/settings.ts';
import { startEventLoopProbe } from './infra/observability/event-loop-probe.ts';
import { backgroundWork } from './app/background-work.ts';
import { gracefulShutdown } from './app/graceful-shutdown.ts';
import { preflight, StartupError } from './app/preflight.ts';
import { createHttpServer, listen } from './http/http-server.ts';
import { deferBodyParsers } from './http/deferred-body-parsers.ts';
import { holdYoungGeneration, releaseYoungGeneration } from './app/young-generation.ts';
import { databaseTarget } from './infra/database/database.ts';
import { queryCompilerWasm } from './infra/database/query-compiler-wasm.ts';
import { createLogger } from './infra/observability/logger.ts';
import { ANVIL_VERSION } from './lib/version.ts';

const USAGE = `usage: anvil [--config PATH]

Serves Anvil. Settings come from app.ini (--config/-c, else ANVIL_CONFIG, else $ANVIL_DATA_DIR/app.ini) and the
environment (FORGEJO__section__KEY, GITEA__…, ANVIL__…, PORT, ANVIL_ROOT_URL, DATABASE_URL).

  -c, --config PATH   the app.ini to read
  -v, --version       print the version
  -h, --help          print this help`;

function listenError(error: NodeJS.ErrnoException, where: string): StartupError {
  if (error.code === 'EADDRINUSE') return new StartupError(`${where} is already in use by another program`);
  if (error.code === 'EACCES') return new StartupError(`${where} may not be listened on by this user`);
  return new StartupError(`cannot listen on ${where}: ${error.code ?? error.message}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string', short: 'c' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (values.version) return void console.log(`Anvil version ${ANVIL_VERSION}`);
  holdYoungGeneration();
  const settings = loadSettings(process.env, { configFile: values.config });
  const log = createLogger(settings.log);
  if (settings.unknownKeys.length > 0)
    log.warn({ file: settings.configFile, keys: settings.unknownKeys }, 'settings Anvil does not read are ignored');
  preflight(settings);
  // Prisma's query compiler compiles on another core while the application's modules load (the catch only marks
  // the promise handled: Prisma awaits it again and reports a failure itself).
  queryCompilerWasm(databaseTarget(settings).provider).catch(() => undefined);
  deferBodyParsers();
  const { bootstrap } = require('./app/bootstrap.ts') as typeof Bootstrap;
  const { createApp } = require('./http/app.ts') as typeof HttpApp;
  const context = await bootstrap(settings, log);
  const app = createApp(context);
  const server = createHttpServer(app, settings.server);
  const { PROTOCOL, HTTP_ADDR, HTTP_PORT } = settings.server;
  const where = PROTOCOL === 'http+unix' ? `the socket ${HTTP_ADDR}` : `port ${HTTP_PORT} on ${HTTP_ADDR}`;
  try {
    await listen(server, settings.server);
  } catch (error) {
    context.sharedRedis?.disconnect();
    await Promise.allSettled([context.jobQueue.close(), context.db.close()]);
    throw listenError(error as NodeJS.ErrnoException, where);
  }
  const address = server.address();
  log.info(
    {
      url: settings.server.ROOT_URL,
      version: ANVIL_VERSION,
      protocol: PROTOCOL,
      address: typeof address === 'string' ? address : HTTP_ADDR,
      port: typeof address === 'string' ? undefined : (address as AddressInfo).port,
    },
    'Anvil is listening',
  );
  startEventLoopProbe();
  releaseYoungGeneration();
  const background = backgroundWork(context, log);
  background.startSoon();
  const stop = gracefulShutdown({
    server,
    log,
    hammerMs: settings.server.GRACEFUL_HAMMER_TIME,
    stopBackground: () => background.stop(),
    handBackLeases: () => background.handBackLeases(),
    closeDatabase: async () => {
      await context.repos.packages.flushDownloads();
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
    },
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  // What the administrator can fix is one line; anything else keeps its stack for a bug report.
  if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
  else if (error instanceof StartupError) console.error(`Cannot start: ${error.message}`);
  else if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    console.error(`${(error as Error).message}\n\n${USAGE}`);
  else console.error(error);
  process.exit(1);
});
