// Sends queued webhook deliveries: every [webhook] QUEUE_POLL_INTERVAL it asks the delivery service to take due
// jobs, and asks again at once while it finds a full batch. HookDeliveryService owns it (startWorker/stopWorker,
// called by the process at boot and on close); a stopped worker's leases expire and another process takes the
// jobs. Timers are unref'd.
import type { Logger } from '../logger.ts';
import type { HookDeliveryService } from './hook-delivery.service.ts';

export class HookDeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly deliveries: HookDeliveryService,
    private readonly log: Logger,
    private readonly pollMs: number,
    private readonly batch: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.tick(), this.pollMs);
    this.timer.unref();
    this.tick();
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drainDue()
      .catch((error: unknown) => this.log.error({ err: error }, 'delivering webhooks failed'))
      .finally(() => {
        this.running = null;
      });
  }

  private async drainDue(): Promise<void> {
    while (!this.stopped && (await this.deliveries.deliverDue(this.batch)) === this.batch);
  }

  /** Stops taking deliveries and waits for the ones in flight, so their results are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
