// For `npm run bench`: with ANVIL_EVENT_LOOP_PROBE=1 and an IPC channel to the parent process, each
// {type: 'event-loop-delay'} message is answered with the event-loop delay (ms) since the previous one.
// Only the process that started Anvil can ask; there is no HTTP surface.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface EventLoopDelay {
  type: 'event-loop-delay';
  p50: number;
  p99: number;
  max: number;
}

export function startEventLoopProbe(): void {
  if (process.env.ANVIL_EVENT_LOOP_PROBE !== '1' || !process.send) return;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on('message', (message: { type?: string }) => {
    if (message?.type !== 'event-loop-delay') return;
    const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
    const answer: EventLoopDelay = {
      type: 'event-loop-delay',
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
    process.send?.(answer);
    histogram.reset();
  });
}
