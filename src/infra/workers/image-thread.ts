// Images are decoded and rendered on a worker thread: a decode costs tens of milliseconds to seconds of CPU, which
// on the main thread would stall every other request. One thread takes the jobs in turn, each with a time limit
// and the thread with a heap limit; a thread that overran or died is replaced, an idle one ends.
import { Worker } from 'node:worker_threads';
import { ImageError } from '../../lib/image.ts';
import type { ImageJob, ImageReply } from './image.worker.ts';
import { workerEntry } from './worker-entry.ts';

const ENTRY = workerEntry('image.worker');

export interface ImageThreadOptions {
  timeoutMs: number;
  idleMs: number;
  maxHeapMb: number;
}

export class ImageThread {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ImageThreadOptions = { timeoutMs: 15_000, idleMs: 60_000, maxHeapMb: 256 }) {}

  /** Runs a job after those before it; a PNG, or an ImageError. */
  run(job: ImageJob): Promise<Buffer> {
    const result = this.queue.then(() => this.runNow(job));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private runNow(job: ImageJob): Promise<Buffer> {
    clearTimeout(this.idleTimer);
    const worker = (this.worker ??= this.spawn());
    const seq = ++this.seq;
    return new Promise<Buffer>((resolve, reject) => {
      const finish = (outcome: { png: Buffer } | { error: ImageError; threadBroken?: boolean }) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if ('error' in outcome && outcome.threadBroken) this.stop(worker);
        else this.idleTimer = setTimeout(() => this.stop(worker), this.options.idleMs).unref();
        if ('png' in outcome) resolve(outcome.png);
        else reject(outcome.error);
      };
      const onMessage = (reply: ImageReply) => {
        if (reply.seq !== seq) return;
        if ('png' in reply) finish({ png: Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength) });
        else finish({ error: new ImageError(reply.error.reason, reply.error.message) });
      };
      const onError = (error: Error) =>
        finish({
          error: new ImageError('failed', `the image could not be processed: ${error.message}`),
          threadBroken: true,
        });
      const onExit = () =>
        finish({ error: new ImageError('failed', 'the image could not be processed'), threadBroken: true });
      const timer = setTimeout(
        () => finish({ error: new ImageError('failed', 'processing the image took too long'), threadBroken: true }),
        this.options.timeoutMs,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ seq, job });
    });
  }

  private spawn(): Worker {
    const worker = new Worker(ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    worker.unref(); // never what keeps the process alive
    return worker;
  }

  private stop(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
  }

  /** Ends the thread (shutdown); a later job starts a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
