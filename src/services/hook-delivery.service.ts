// Delivers queued webhook deliveries: leases due delivery jobs, renders each request for its hook's type, sends
// it to an allowed address, and records the attempt. A network error, a timeout or a 5xx answer is retried with
// exponential back-off under the same delivery id until [webhook] MAX_ATTEMPTS, then the delivery is failed;
// a 2xx answer delivers it; any other answer, a refused address or a missing hook fails it at once.
// (Forgejo: services/webhook/deliver.go; Forgejo itself never retries.)
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Models } from '../db/prisma.ts';
import type { HookTask } from '../db/hook-task.repository.ts';
import { parseHostAllowList } from '../domain/host-allow-list.ts';
import type { HookEventType } from '../domain/hook-event.ts';
import { HookSendError, type HookResponse, sendHookRequest } from '../webhook/client.ts';
import { type HookRequest, renderHookRequest, UnsupportedHookTypeError } from '../webhook/request.ts';
import { HookDeliveryWorker } from './hook-delivery-worker.ts';
import { HOOK_DELIVERY_JOB } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Response bytes kept in a delivery's history. */
const MAX_RESPONSE_BYTES = 64 * 1024;

type Outcome = { status: 'delivered' | 'failed' } | { status: 'retry'; error: string };

/** Forgejo records the Authorization header with its credentials masked. */
function redactAuthorization(value: string): string {
  if (value.startsWith('Bearer ')) return 'Bearer ******';
  if (value.startsWith('Basic ')) return 'Basic ******';
  return '******';
}

export class HookDeliveryService {
  /** Names this process's leases: host, pid and a random part (several apps may share one process in tests). */
  readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly allowList;
  private worker: HookDeliveryWorker | null = null;

  constructor(private readonly deps: ServiceDeps) {
    this.allowList = parseHostAllowList(deps.settings.webhook.ALLOWED_HOST_LIST);
  }

  /** Starts sending due deliveries on a timer in this process (main does this unless webhooks are disabled). */
  startWorker(pollMs = this.deps.settings.webhook.QUEUE_POLL_INTERVAL, batch = this.deps.settings.webhook.DELIVERY_CONCURRENCY): void {
    if (this.worker) return;
    this.worker = new HookDeliveryWorker(this, this.deps.log, pollMs, batch);
    this.worker.start();
  }

  /** Stops taking deliveries and waits for the ones in flight, so their results are recorded. */
  async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.stop();
  }

  /** On a forced shutdown: gives back the deliveries still in flight here, so another process sends them at once. */
  async handBackLeases(): Promise<void> {
    await this.deps.repos.jobs.releaseHeldBy(this.holder);
  }

  private get leaseMs(): number {
    // A lease must outlast the request it covers.
    return Math.max(this.deps.settings.webhook.DELIVERY_LEASE, this.deps.settings.webhook.DELIVER_TIMEOUT * 1000 + 1000);
  }

  /** Leases up to `limit` due deliveries and sends them; the number taken. */
  async deliverDue(limit = this.deps.settings.webhook.DELIVERY_CONCURRENCY): Promise<number> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) return 0;
    const now = new Date();
    const jobs = await this.deps.repos.jobs.lease(HOOK_DELIVERY_JOB, this.holder, now, new Date(now.getTime() + this.leaseMs), limit);
    await Promise.all(jobs.map((job) => this.deliverJob(job).catch((error: unknown) => this.deps.log.error({ err: error, jobId: job.id }, 'webhook delivery failed unexpectedly'))));
    return jobs.length;
  }

  private async deliverJob(job: Models.JobModel): Promise<void> {
    const { repos } = this.deps;
    const { hookTaskId } = JSON.parse(job.payload) as { hookTaskId: number };
    const task = await repos.hookTasks.findById(hookTaskId);
    if (!task || task.status !== 'pending') {
      await repos.jobs.complete(job.id, this.holder);
      return;
    }
    const hook = await repos.webhooks.findForDelivery(task.hookId);
    if (!hook || !hook.isActive) {
      await this.finish(job, task, { status: 'failed' }, '', { status: 0, headers: {}, body: hook ? 'Delivery: the hook is inactive' : 'Delivery: the hook was deleted' }, 0);
      return;
    }
    let request: HookRequest;
    try {
      request = renderHookRequest(hook, { uuid: task.uuid, eventType: task.eventType as HookEventType, payload: task.payload });
    } catch (error) {
      const message = error instanceof UnsupportedHookTypeError ? error.message : `cannot build the request: ${(error as Error).message}`;
      await this.finish(job, task, { status: 'failed' }, '', { status: 0, headers: {}, body: `Delivery: ${message}` }, 0);
      return;
    }
    const recordedHeaders = { ...request.headers };
    if (hook.authorization) {
      request.headers.Authorization = hook.authorization;
      recordedHeaders.Authorization = redactAuthorization(hook.authorization);
    }
    const requestInfo = JSON.stringify({ url: request.url, http_method: request.method, headers: recordedHeaders, body: request.body.toString('utf8') });
    const started = performance.now();
    let response: HookResponse;
    let outcome: Outcome;
    try {
      response = await sendHookRequest(request, {
        allowList: this.allowList,
        timeoutMs: this.deps.settings.webhook.DELIVER_TIMEOUT * 1000,
        skipTlsVerify: this.deps.settings.webhook.SKIP_TLS_VERIFY,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      if (response.status >= 200 && response.status < 300) outcome = { status: 'delivered' };
      else if (response.status >= 500) outcome = { status: 'retry', error: `answered ${response.status}` };
      else outcome = { status: 'failed' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      response = { status: 0, headers: {}, body: `Delivery: ${message}` };
      outcome = error instanceof HookSendError && error.kind === 'refused' ? { status: 'failed' } : { status: 'retry', error: message };
    }
    await this.finish(job, task, outcome, requestInfo, response, Math.round(performance.now() - started));
  }

  private async finish(job: Models.JobModel, task: HookTask, outcome: Outcome, requestInfo: string, response: HookResponse, durationMs: number): Promise<void> {
    const { MAX_ATTEMPTS, RETRY_BACKOFF } = this.deps.settings.webhook;
    const retry = outcome.status === 'retry' && job.attempts < MAX_ATTEMPTS;
    const status = outcome.status === 'delivered' ? 'delivered' : retry ? 'pending' : 'failed';
    const attempt = {
      status, attempts: job.attempts, isSucceed: status === 'delivered', requestInfo, responseInfo: JSON.stringify(response), durationMs, deliveredAt: new Date(),
    } as const;
    await this.deps.transactions.run(async (repos) => {
      await repos.hookTasks.recordAttempt(task.id, attempt);
      if (retry) {
        const delay = RETRY_BACKOFF * 2 ** (job.attempts - 1);
        await repos.jobs.retryAt(job.id, this.holder, new Date(Date.now() + delay), (outcome as { error: string }).error);
      } else {
        await repos.jobs.complete(job.id, this.holder);
      }
    });
    this.deps.log.debug({ hookId: task.hookId, delivery: task.uuid, status, attempt: job.attempts, responseStatus: response.status }, 'webhook delivery attempt');
  }

  /** cleanup_hook_task_table: finished deliveries beyond the newest NUMBER_TO_KEEP per hook, or older than OLDER_THAN. */
  async cleanupHistory(): Promise<{ deleted: number }> {
    const options = this.deps.settings['cron.cleanup_hook_task_table'];
    const deleted = options.CLEANUP_TYPE === 'olderthan'
      ? await this.deps.repos.hookTasks.deleteFinishedBefore(new Date(Date.now() - options.OLDER_THAN))
      : await this.deps.repos.hookTasks.keepNewestPerHook(options.NUMBER_TO_KEEP);
    return { deleted };
  }
}
