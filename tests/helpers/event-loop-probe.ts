// Measures whether work left the event loop free: a probe records the loop's longest stall while the work runs.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** The longest stall a test accepts on an idle machine (the target is 100 ms; this leaves room for a busy CI). */
const MAX_EVENT_LOOP_STALL_MS = 1000;

/** Runs work while a probe records the event loop's longest stall (ms) and the work's own time (ms). */
export async function withEventLoopProbe<T>(
  work: () => Promise<T>,
): Promise<{ result: T; maxStallMs: number; workMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  try {
    const result = await work();
    return { result, maxStallMs: histogram.max / 1e6, workMs: performance.now() - started };
  } finally {
    histogram.disable();
  }
}

/**
 * On a machine stalled by others, the probe's longest stall grows with everything else; work on the event loop would
 * stall it for nearly the whole time of the work, so a stall under half that time also shows the loop free.
 */
export const allowedStallMs = (workMs: number) => Math.max(MAX_EVENT_LOOP_STALL_MS, workMs / 2);
