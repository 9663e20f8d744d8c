// Delivers queued webhook deliveries: runs delivery jobs from the job queue (the database table or Redis), renders each request for its hook's type, sends
// it to an allowed address, and records the attempt. A network error, a timeout or a 5xx answer is retried with
// exponential back-off under the same delivery id until [webhook] MAX_ATTEMPTS, then the delivery is failed;
// a 2xx answer delivers it; any other answer, a refused address or a missing hook fails it at once.
// (Forgejo: services/webhook/deliver.go; Forgejo itself never retries.)
import { performance } from 'node:perf_hooks';
import type { HookTask } from '../db/hook-task.repository.ts';
import { parseHostAllowList } from '../domain/host-allow-list.ts';
import type { HookEventType } from '../domain/hook-event.ts';
import { HookSendError, type HookResponse, sendHookRequest } from '../webhook/client.ts';
import { type HookRequest, renderHookRequest, UnsupportedHookTypeError } from '../webhook/request.ts';
import type { JobResult, JobWorker, QueuedJob } from '../infra/queue/job-queue.ts';
import { HOOK_DELIVERY_JOB } from './hook-events.service.ts';
import { keepRenewed } from '../lib/keep-renewed.ts';
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

/** What went wrong, for the log: Anvil's own failure text, or the status the receiver answered. */
function failureText(response: HookResponse): string {
  return response.status === 0 ? response.body.replace(/^Delivery: /, '') : `answered ${response.status}`;
}

export class HookDeliveryService {
  private readonly allowList;
  private worker: JobWorker | null = null;

  constructor(private readonly deps: ServiceDeps) {
    this.allowList = parseHostAllowList(deps.settings.webhook.ALLOWED_HOST_LIST);
  }

  /** Starts sending due deliveries in this process (main does this unless webhooks are disabled). */
  startWorker(
    pollMs = this.deps.settings.webhook.QUEUE_POLL_INTERVAL,
    batch = this.deps.settings.webhook.DELIVERY_CONCURRENCY,
  ): void {
    if (this.worker) return;
    this.worker = this.deps.jobQueue.work(HOOK_DELIVERY_JOB, (job) => this.deliver(job), {
      concurrency: batch,
      pollMs,
      leaseMs: this.leaseMs,
    });
  }

  /** Stops taking deliveries and waits for the ones in flight, so their results are recorded. */
  async stopWorker(): Promise<void> {
    const worker = this.worker;
    // Kept until its runs have finished, so a forced shutdown can still hand them back.
    await worker?.stop();
    if (this.worker === worker) this.worker = null;
  }

  /** On a forced shutdown: gives back the deliveries still in flight here, so another process sends them at once. */
  async handBackLeases(): Promise<void> {
    await this.worker?.handBack();
  }

  /** How long a delivery stays held by a process that stopped renewing it (died) before another takes it. */
  private get leaseMs(): number {
    return this.deps.settings.webhook.DELIVERY_LEASE;
  }

  /** Sends up to `limit` due deliveries here and now; the number taken (with [queue] TYPE=redis: hands them to Redis, 0). */
  async deliverDue(limit = this.deps.settings.webhook.DELIVERY_CONCURRENCY): Promise<number> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) return 0;
    return this.deps.jobQueue.runDue(HOOK_DELIVERY_JOB, (job) => this.deliver(job), limit, this.leaseMs);
  }

  /**
   * Another run holds the attempt or has recorded it: either it is sending now or has sent (two relays raced) —
   * nothing to send here, its own job retries if the answer asks — or it died with the claim (a killed process), and
   * the delivery must be tried again when the claim expires rather than be dropped.
   */
  private async afterClaimRefused(taskId: number): Promise<JobResult> {
    const task = await this.deps.repos.hookTasks.findById(taskId);
    if (task?.status !== 'pending' || !task.claimedUntil) return { outcome: 'done' };
    const afterMs = Math.max(0, task.claimedUntil.getTime() - Date.now()) + 100;
    return { outcome: 'retry', afterMs, error: 'another run holds this delivery' };
  }

  private async deliver(job: QueuedJob): Promise<JobResult> {
    const { repos } = this.deps;
    const { hookTaskId } = job.payload as { hookTaskId: number };
    const task = await repos.hookTasks.findById(hookTaskId);
    if (!task) return { outcome: 'done' };
    let claim = await repos.hookTasks.claimAttempt(task.id, task.attempts, this.leaseMs);
    if (!claim) return this.afterClaimRefused(task.id);
    // The claim is renewed while the attempt lasts, so it can be short whatever DELIVER_TIMEOUT is.
    const stopRenewing = keepRenewed(
      async () => {
        if (claim) claim = await repos.hookTasks.extendClaim(task.id, claim, this.leaseMs);
      },
      this.leaseMs,
      (error) => this.deps.log.warn({ err: error, delivery: task.uuid }, 'renewing a delivery claim failed'),
    );
    try {
      return await this.attempt(job, task);
    } finally {
      stopRenewing();
    }
  }

  /** One attempt of a claimed delivery: the request rendered, sent and recorded. */
  private async attempt(job: QueuedJob, task: HookTask): Promise<JobResult> {
    const { repos } = this.deps;
    const hook = await repos.webhooks.findForDelivery(task.hookId);
    if (!hook || !hook.isActive) {
      return this.finish(
        job,
        task,
        { status: 'failed' },
        '',
        { status: 0, headers: {}, body: hook ? 'Delivery: the hook is inactive' : 'Delivery: the hook was deleted' },
        0,
      );
    }
    let request: HookRequest;
    try {
      request = renderHookRequest(hook, {
        uuid: task.uuid,
        eventType: task.eventType as HookEventType,
        payload: task.payload,
      });
    } catch (error) {
      const message =
        error instanceof UnsupportedHookTypeError
          ? error.message
          : `cannot build the request: ${(error as Error).message}`;
      return this.finish(
        job,
        task,
        { status: 'failed' },
        '',
        { status: 0, headers: {}, body: `Delivery: ${message}` },
        0,
      );
    }
    const recordedHeaders = { ...request.headers };
    if (hook.authorization) {
      request.headers.Authorization = hook.authorization;
      recordedHeaders.Authorization = redactAuthorization(hook.authorization);
    }
    const requestInfo = JSON.stringify({
      url: request.url,
      http_method: request.method,
      headers: recordedHeaders,
      body: request.body.toString('utf8'),
    });
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
      outcome =
        error instanceof HookSendError && error.kind === 'refused'
          ? { status: 'failed' }
          : { status: 'retry', error: message };
    }
    return this.finish(job, task, outcome, requestInfo, response, Math.round(performance.now() - started));
  }

  /** Records the attempt on the HookTask and tells the queue whether to run the job again. */
  private async finish(
    job: QueuedJob,
    task: HookTask,
    outcome: Outcome,
    requestInfo: string,
    response: HookResponse,
    durationMs: number,
  ): Promise<JobResult> {
    const { MAX_ATTEMPTS, RETRY_BACKOFF } = this.deps.settings.webhook;
    // Sends of this delivery, not runs of its job: a run that only found the attempt claimed sent nothing.
    const attempt = task.attempts + 1;
    const retry = outcome.status === 'retry' && attempt < MAX_ATTEMPTS;
    const status = outcome.status === 'delivered' ? 'delivered' : retry ? 'pending' : 'failed';
    await this.deps.repos.hookTasks.recordAttempt(task.id, {
      status,
      attempts: attempt,
      isSucceed: status === 'delivered',
      requestInfo,
      responseInfo: JSON.stringify(response),
      durationMs,
      deliveredAt: new Date(),
    });
    const logged = { hookId: task.hookId, delivery: task.uuid, status, attempt, responseStatus: response.status };
    if (status === 'delivered') this.deps.log.debug(logged, 'webhook delivery attempt');
    // The error names no URL, header or body: a hook's URL and headers may carry its credentials.
    else if (status === 'pending')
      this.deps.log.info({ ...logged, error: failureText(response) }, 'webhook delivery attempt failed, will retry');
    else this.deps.log.warn({ ...logged, error: failureText(response) }, 'webhook delivery failed');
    return retry
      ? {
          outcome: 'retry',
          afterMs: RETRY_BACKOFF * 2 ** (attempt - 1),
          error: (outcome as { error: string }).error,
        }
      : { outcome: 'done' };
  }

  /** cleanup_hook_task_table: finished deliveries beyond the newest NUMBER_TO_KEEP per hook, or older than OLDER_THAN. */
  async cleanupHistory(): Promise<{ deleted: number }> {
    const options = this.deps.settings['cron.cleanup_hook_task_table'];
    const deleted =
      options.CLEANUP_TYPE === 'olderthan'
        ? await this.deps.repos.hookTasks.deleteFinishedBefore(new Date(Date.now() - options.OLDER_THAN))
        : await this.deps.repos.hookTasks.keepNewestPerHook(options.NUMBER_TO_KEEP);
    return { deleted };
  }
}
