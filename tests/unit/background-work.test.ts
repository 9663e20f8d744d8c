import { BACKGROUND_START_DELAY_MS, backgroundWork } from '../../src/app/background-work.ts';
import type { AppContext } from '../../src/app/app-context.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';

/** A context whose background parts only record what was asked of them. */
function recordingContext(calls: string[]): AppContext {
  const record =
    (name: string, answer: unknown = undefined) =>
    async () => {
      calls.push(name);
      return answer;
    };
  return {
    settings: { cron: { ENABLED: true }, security: { DISABLE_WEBHOOKS: false }, federation: { ENABLED: true } },
    repos: { webhooks: { encryptLegacyRows: record('encrypt legacy rows', 0) } },
    services: {
      cron: { startScheduler: record('cron start'), stopScheduler: record('cron stop') },
      hookDeliveries: { startWorker: () => calls.push('deliveries start'), stopWorker: record('deliveries stop') },
      activityPub: { startKeyWorker: () => calls.push('keys start'), stopKeyWorker: record('keys stop') },
      packageIndexes: { startWorker: () => calls.push('indexes start'), stopWorker: record('indexes stop') },
      repoEdits: { refreshCutOffFromDisk: record('refresh cut off', 0) },
      markup: { close: record('markup close') },
    },
  } as unknown as AppContext;
}

const log = createLogger('silent');

describe('background work', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts the workers and the housekeeping only once the start delay has passed', async () => {
    const calls: string[] = [];
    backgroundWork(recordingContext(calls), log).startSoon();
    await jest.advanceTimersByTimeAsync(BACKGROUND_START_DELAY_MS - 1);
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([
      'cron start',
      'deliveries start',
      'keys start',
      'indexes start',
      'encrypt legacy rows',
      'refresh cut off',
    ]);
  });

  it('never starts what a shutdown before the delay stopped', async () => {
    const calls: string[] = [];
    const work = backgroundWork(recordingContext(calls), log);
    work.startSoon();
    await work.stop();
    await jest.advanceTimersByTimeAsync(BACKGROUND_START_DELAY_MS * 2);
    expect(calls.filter((call) => call.endsWith('start') || call.startsWith('encrypt'))).toEqual([]);
  });
});
