// The turn scheduler starts a burst of requests over several turns of the event loop, first come first started, so
// timers run between them; one request alone starts at once (in the next check phase). The tests assert the order of
// events, not times, so a slow or loaded machine cannot fail them.
import type { NextFunction, Request, Response } from 'express';
import { turnScheduler } from '../../src/http/turn-scheduler.ts';

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
      const next = (() => {
        // A timer due while the first handlers run fires before the burst ends.
        if (i === 0) setTimeout(() => (startedWhenTimerFired = started.length), 0);
        started.push(i);
        busy(2);
        if (started.length === 100) resolve();
      }) as NextFunction;
      schedule({} as Request, {} as Response, next);
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
    schedule(
      {} as Request,
      {} as Response,
      (() => resolve({ synchronously: !scheduleReturned, beforeLaterCallback: !laterCallbackRan })) as NextFunction,
    ),
  );
  scheduleReturned = true;
  setImmediate(() => (laterCallbackRan = true));
  expect(await start).toEqual({ synchronously: false, beforeLaterCallback: true });
});
