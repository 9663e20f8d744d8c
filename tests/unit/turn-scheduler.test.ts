// The turn scheduler starts a burst of requests over several turns of the event loop, first come first started, so
// timers run between them; one request alone starts at once (in the next check phase).
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
        started.push(i);
        busy(2);
        if (started.length === 100) resolve();
      }) as NextFunction;
      schedule({} as Request, {} as Response, next);
    }
  });
  setTimeout(() => (startedWhenTimerFired = started.length), 1);
  expect(started).toEqual([]);
  await all;
  expect(started).toEqual(Array.from({ length: 100 }, (_, i) => i));
  // 200 ms of handlers at once: the timer ran after a few turns, long before the last of them.
  expect(startedWhenTimerFired).toBeGreaterThan(0);
  expect(startedWhenTimerFired).toBeLessThan(50);
});

it('starts a lone request in the next turn', async () => {
  const schedule = turnScheduler();
  const begun = performance.now();
  const startedAt = await new Promise<number>((resolve) =>
    schedule({} as Request, {} as Response, (() => resolve(performance.now())) as NextFunction),
  );
  expect(startedAt - begun).toBeLessThan(50);
});
