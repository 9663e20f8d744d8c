// Requests start a bounded number per turn of the event loop. Under a burst (64 bots at once), handlers reading SQLite
// synchronously ran back to back in one turn for 100 ms and more, and every timer (job leases, the delay monitor,
// keep-alive) waited behind them. Now waiting requests start from one callback per turn, as many as the last turns
// show fit in its budget (halved when a turn overran it, grown by one when it had room): a burst spreads over turns
// and timers run between them. A request also waits while the running ones fill the event loop (running-limit.ts);
// one that ends within the turn's budget hands its place on at once, so cheap requests are not held to a few a turn.
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
  /** When the current turn's pump ran, and how many requests started in the turn since. */
  let turnStartedAt = 0;
  let startedThisTurn = 0;
  /** Looks again when no running request ends meanwhile: the limit may grow while they all wait on I/O. */
  let recheck: NodeJS.Timeout | null = null;

  const startPumping = () => {
    if (pumping || waiting.length === 0) return;
    pumping = true;
    lastPumpAt = performance.now();
    setImmediate(pump);
  };

  const startWhileRoom = () => {
    for (; startedThisTurn < perTurn && waiting.length > 0 && running.hasRoom(); startedThisTurn++) waiting.shift()!();
  };

  const pump = () => {
    const now = performance.now();
    const turn = now - lastPumpAt;
    lastPumpAt = now;
    // The previous pump's requests ran their synchronous work (and the other phases ran) since it.
    if (turn > TURN_BUDGET_MS) perTurn = Math.max(1, Math.floor(perTurn / 2));
    else if (turn < TURN_BUDGET_MS / 2) perTurn = Math.min(MAX_PER_TURN, perTurn + 1);
    turnStartedAt = now;
    startedThisTurn = 0;
    startWhileRoom();
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

  /**
   * A request that ends within this turn's budget hands its place to the next at once (after the current callback's
   * own work): cheap requests keep starting by the turn's worth, as they would without a limit.
   */
  const ended = () => {
    if (startedThisTurn >= perTurn || performance.now() - turnStartedAt >= TURN_BUDGET_MS) return startPumping();
    queueMicrotask(() => {
      startWhileRoom();
      startPumping();
    });
  };

  return (_req, res, next) => {
    const start = running.follow(res, ended);
    waiting.push(() => {
      start();
      next();
    });
    startPumping();
  };
}
