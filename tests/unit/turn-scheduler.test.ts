// The turn scheduler starts a burst of requests over several turns of the event loop, first come first started, so
// timers run between them; one request alone starts at once (in the next check phase). The tests assert the order of
// events, not times, so a slow or loaded machine cannot fail them.
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { RunningLimit } from '../../src/http/running-limit.ts';
import { turnScheduler } from '../../src/http/turn-scheduler.ts';

/** A response that ends when told to. */
const response = () => new EventEmitter() as unknown as Response;
const end = (res: Response) => res.emit('finish');

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

it('spreads a burst of synchronous handlers over turns, in arrival order, letting timers run between them', async () => {
  const schedule = turnScheduler();
  const started: number[] = [];
  let startedWhenTimerFired = -1;
  const all = new Promise<void>((resolve) => {
    for (let i = 0; i < 100; i++) {
      const res = response();
      const next = (() => {
        // A timer due while the first handlers run fires before the burst ends.
        if (i === 0) setTimeout(() => (startedWhenTimerFired = started.length), 0);
        started.push(i);
        busy(2);
        if (started.length === 100) resolve();
        end(res);
      }) as NextFunction;
      schedule({} as Request, res, next);
    }
  });
  expect(started).toEqual([]);
  await all;
  expect(started).toEqual(Array.from({ length: 100 }, (_, i) => i));
  expect(startedWhenTimerFired).toBeGreaterThan(0);
  expect(startedWhenTimerFired).toBeLessThan(100);
});

it('starts a lone request in the next turn, before callbacks queued after it', async () => {
  const schedule = turnScheduler();
  let scheduleReturned = false;
  let laterCallbackRan = false;
  const start = new Promise<{ synchronously: boolean; beforeLaterCallback: boolean }>((resolve) =>
    schedule({} as Request, response(), (() =>
      resolve({ synchronously: !scheduleReturned, beforeLaterCallback: !laterCallbackRan })) as NextFunction),
  );
  scheduleReturned = true;
  setImmediate(() => (laterCallbackRan = true));
  expect(await start).toEqual({ synchronously: false, beforeLaterCallback: true });
});

/** Starts a request through `schedule`; resolves with its response once it has started. */
function startOne(schedule: ReturnType<typeof turnScheduler>, log: string[], name: string): Promise<Response> {
  const res = response();
  return new Promise((resolve) =>
    schedule({} as Request, res, (() => {
      log.push(name);
      resolve(res);
    }) as NextFunction),
  );
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

it('holds a request while the limit of running ones is reached, and starts it when one of them ends', async () => {
  // A window no test outlasts: the limit stays 2.
  const schedule = turnScheduler(new RunningLimit({ initial: 2, windowMs: 600_000 }));
  const log: string[] = [];
  const first = startOne(schedule, log, 'first');
  void startOne(schedule, log, 'second');
  const third = startOne(schedule, log, 'third');
  for (let i = 0; i < 5; i++) await turn();
  expect(log).toEqual(['first', 'second']);
  end(await first);
  await third;
  expect(log).toEqual(['first', 'second', 'third']);
});

it('does not count a request whose client left while it waited', async () => {
  const schedule = turnScheduler(new RunningLimit({ initial: 1, windowMs: 600_000 }));
  const log: string[] = [];
  const first = startOne(schedule, log, 'first');
  const gone = response();
  schedule({} as Request, gone, (() => log.push('gone')) as NextFunction);
  gone.emit('close');
  const third = startOne(schedule, log, 'third');
  end(await first);
  // The request whose client left still runs, but holds no place: the next one starts beside it.
  await third;
  expect(log).toEqual(['first', 'gone', 'third']);
});

it('raises the limit while the running requests leave the event loop idle (waiting on I/O), so none waits for ever', async () => {
  const schedule = turnScheduler(new RunningLimit({ initial: 4, windowMs: 5 }));
  const log: string[] = [];
  const started = Array.from({ length: 12 }, (_, i) => startOne(schedule, log, `request ${i}`));
  // None of them ends; the loop is idle meanwhile.
  await Promise.all(started);
  expect(log).toEqual(Array.from({ length: 12 }, (_, i) => `request ${i}`));
});

it('hands the place of a request that ended in the turn it started to the next one, in the same turn', async () => {
  const schedule = turnScheduler(new RunningLimit({ initial: 2, windowMs: 600_000 }));
  const log: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = response();
    schedule({} as Request, res, (() => {
      log.push(`request ${i}`);
      // A cached answer: the handler ends the response after its awaits, before the turn is over.
      void Promise.resolve().then(() => res.emit('prefinish'));
    }) as NextFunction);
  }
  await turn();
  expect(log).toEqual(Array.from({ length: 5 }, (_, i) => `request ${i}`));
});
