// Shutdown on SIGTERM or SIGINT: the server stops accepting connections, requests in flight finish (their
// connections close once answered), background work takes nothing new and waits for what runs, then the
// database closes and the process exits 0. Past [server] GRACEFUL_HAMMER_TIME (Forgejo's name; negative: no
// bound) the rest is cut off: connections closed, the leases of unfinished background work handed back for
// another process to take at once, exit 1.
import type { Server } from 'node:http';
import type { Logger } from '../infra/observability/logger.ts';

export interface ShutdownSteps {
  server: Server;
  log: Logger;
  hammerMs: number;
  /** Stops taking background work and waits for what is running. */
  stopBackground(): Promise<void>;
  /** Releases the leases of background work still running here. */
  handBackLeases(): Promise<void>;
  closeDatabase(): Promise<void>;
  exit(code: number): void;
}

const IDLE_SWEEP_MS = 100;
const HAND_BACK_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The handler for the termination signals; a second signal while shutting down ends the process at once. */
export function gracefulShutdown(steps: ShutdownSteps): () => void {
  const { server, log } = steps;
  let started = false;
  return () => {
    if (started) {
      log.warn('second termination signal: exiting at once');
      steps.exit(1);
      return;
    }
    started = true;
    log.info('shutting down: finishing requests and background work');
    // Requests still arriving on open connections are served, and their connection then closes.
    server.prependListener('request', (_req, res) => {
      res.shouldKeepAlive = false;
    });
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    // An answered keep-alive connection is idle; closing it at once lets the server close before its timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const background = steps
      .stopBackground()
      .catch((error: unknown) => log.error({ err: error }, 'stopping background work failed'));
    const finished = Promise.all([serverClosed, background])
      .then(() => steps.closeDatabase())
      .then(
        () => 0,
        (error: unknown) => {
          log.error({ err: error }, 'closing the database failed');
          return 1;
        },
      );
    const outcomes = [finished];
    if (steps.hammerMs >= 0) {
      outcomes.push(
        sleep(steps.hammerMs).then(async () => {
          log.warn(
            { afterMs: steps.hammerMs },
            'shutdown took too long: cutting off the requests and background work left',
          );
          server.closeAllConnections();
          await Promise.race([
            steps.handBackLeases().catch((error: unknown) => log.error({ err: error }, 'handing back leases failed')),
            sleep(HAND_BACK_MS),
          ]);
          return 1;
        }),
      );
    }
    void Promise.race(outcomes).then((code) => {
      clearInterval(sweep);
      if (code === 0) log.info('shut down');
      steps.exit(code);
    });
  };
}
