// Requests start a bounded number per turn of the event loop. Under a burst (64 bots at once), handlers reading SQLite
// synchronously ran back to back in one turn for 100 ms and more, and every timer (job leases, the delay monitor,
// keep-alive) waited behind them. Now waiting requests start from one callback per turn, as many as the last turns
// show fit in its budget (halved when a turn overran it, grown by one when it had room): a burst spreads over turns
// and timers run between them. First come, first started; nothing is refused.
import type { RequestHandler } from 'express';

/** How long one turn's started requests should take, with the rest of the turn. */
const TURN_BUDGET_MS = 10;
const MAX_PER_TURN = 64;

export function turnScheduler(): RequestHandler {
  const waiting: Array<() => void> = [];
  let perTurn = 8;
  let pumping = false;
  let lastPumpAt = 0;

  const pump = () => {
    const now = performance.now();
    const turn = now - lastPumpAt;
    lastPumpAt = now;
    // The previous pump's requests ran their synchronous work (and the other phases ran) since it.
    if (turn > TURN_BUDGET_MS) perTurn = Math.max(1, Math.floor(perTurn / 2));
    else if (turn < TURN_BUDGET_MS / 2) perTurn = Math.min(MAX_PER_TURN, perTurn + 1);
    for (let started = 0; started < perTurn && waiting.length > 0; started++) waiting.shift()!();
    if (waiting.length > 0) setImmediate(pump);
    else pumping = false;
  };

  return (_req, _res, next) => {
    waiting.push(next);
    if (pumping) return;
    pumping = true;
    lastPumpAt = performance.now();
    setImmediate(pump);
  };
}
