// Markup is rendered on worker threads (piscina), never on the main thread: a large or hostile document costs
// its own thread up to the time budget, while the event loop keeps serving other requests. The budget covers
// waiting for a thread too; past it the thread is ended (piscina replaces it) and the render is refused.
// Threads start on the first render, not at start, and end when idle.
import os from 'node:os';
import type { Piscina } from 'piscina';
import type { RenderOutcome } from '../../render/markup.ts';
import type { RenderTask } from './render.worker.ts';
import { workerEntry } from './worker-entry.ts';

const ENTRY = workerEntry('render.worker');
const IDLE_MS = 60_000;
const MAX_HEAP_MB = 256;

export interface RenderPoolOptions {
  /** Longest a render may take, waiting for a thread included. */
  timeoutMs: number;
  /** Threads at most; 0 for as many as there are cores, at most 2. */
  threads: number;
}

/** A document the threads would not render within the budget (or that broke the thread rendering it). */
export class RenderRefusedError extends Error {}

/** What a thread that failed reports; a bug in the renderer is none of these and goes on as it is. */
function refusal(error: unknown, timeoutMs: number): RenderRefusedError | null {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === 'AbortError') return new RenderRefusedError(`the text could not be rendered within ${timeoutMs} ms`);
  // Out of heap or stack: too large or too deeply nested to render.
  if (code === 'ERR_WORKER_OUT_OF_MEMORY' || error instanceof RangeError) {
    return new RenderRefusedError('the text is too complex to render');
  }
  return null;
}

export class RenderPool {
  private pool: Piscina | null = null;

  constructor(private readonly options: RenderPoolOptions) {}

  async run(task: RenderTask): Promise<RenderOutcome> {
    const pool = (this.pool ??= this.start());
    try {
      return (await pool.run(task, { signal: AbortSignal.timeout(this.options.timeoutMs) })) as RenderOutcome;
    } catch (error) {
      throw refusal(error, this.options.timeoutMs) ?? error;
    }
  }

  private start(): Piscina {
    // Loaded on the first render: nothing of it is needed to start the server.
    const { Piscina: Pool } = require('piscina') as typeof import('piscina');
    const threads = this.options.threads || Math.min(2, os.availableParallelism());
    return new Pool({
      filename: ENTRY,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
    });
  }

  /** Ends the threads (shutdown, test teardown); a later render starts new ones. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
