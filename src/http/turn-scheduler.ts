// Requests start a bounded number per turn of the event loop. Under a burst (64 bots at once), handlers reading SQLite
// synchronously ran back to back in one turn for 100 ms and more, and every timer (job leases, the delay monitor,
// keep-alive) waited behind them. Now waiting requests start from one callback per turn, as many as the last turns
// show fit in its budget (halved when a turn overran it, grown by one when it had room): a burst spreads over turns
// and timers run between them. A request also waits while the running ones fill the event loop (running-limit.ts).
// First come, first started; nothing is refused.
import type { RequestHandler } from 'express';
import { RunningLimit } from './running-limit.ts';

/** How long one turn's started requests should take, with the rest of the turn. */
const TURN_BUDGET_MS = 10;
const MAX_PER_TURN = 64;

export function turnScheduler(running = new RunningLimit()): RequestHandler {
  const waiting: Array<() => void> = [];
  let perTurn = 8;
  let pumping = false;
  let lastPumpAt = 0;
  /** Looks again when no running request ends meanwhile: the limit may grow while they all wait on I/O. */
  let recheck: NodeJS.Timeout | null = null;

  const startPumping = () => {
    if (pumping || waiting.length === 0) return;
    pumping = true;
    lastPumpAt = performance.now();
    setImmediate(pump);
  };

  const pump = () => {
    const now = performance.now();
    const turn = now - lastPumpAt;
    lastPumpAt = now;
    // The previous pump's requests ran their synchronous work (and the other phases ran) since it.
    if (turn > TURN_BUDGET_MS) perTurn = Math.max(1, Math.floor(perTurn / 2));
    else if (turn < TURN_BUDGET_MS / 2) perTurn = Math.min(MAX_PER_TURN, perTurn + 1);
    for (let started = 0; started < perTurn && waiting.length > 0 && running.hasRoom(); started++) waiting.shift()!();
    if (waiting.length > 0 && running.hasRoom()) {
      setImmediate(pump);
      return;
    }
    pumping = false;
    if (waiting.length > 0 && !recheck)
      recheck = setTimeout(() => {
        recheck = null;
        startPumping();
      }, running.windowMs).unref();
  };

  return (_req, res, next) => {
    const start = running.follow(res, startPumping);
    waiting.push(() => {
      start();
      next();
    });
    startPumping();
  };
}
