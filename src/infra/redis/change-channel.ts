// A pub/sub channel on the shared Redis over which processes tell each other that something they cache changed.
// Each process subscribes on a connection of its own (a subscribed connection runs no other command), which closes
// with the shared client. A message can be lost while Redis is away, so `changed` is also called when the
// subscription comes back; what cannot be reached within the shared client's command timeout is logged, not thrown.
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from '../observability/logger.ts';

export interface ChangeChannel {
  /** Tells every other process; resolves once Redis has passed the message on (or refused). */
  publish(): Promise<void>;
}

export function changeChannel(shared: Redis, name: string, changed: () => void, log: Logger): ChangeChannel {
  const self = randomUUID();
  const subscriber = shared.duplicate({ lazyConnect: false, maxRetriesPerRequest: null });
  // The shared client reports outages; the subscriber would report each of them again.
  subscriber.on('error', () => undefined);
  let subscribed = false;
  subscriber.on('ready', () => {
    // Messages sent while this process was not subscribed are gone: assume the worst.
    if (subscribed) changed();
  });
  subscriber.on('message', (channel: string, sender: string) => {
    if (channel === name && sender !== self) changed();
  });
  subscriber.subscribe(name).then(
    () => (subscribed = true),
    (error: unknown) => log.warn({ err: error, channel: name }, 'could not subscribe to the change channel'),
  );
  shared.once('end', () => subscriber.disconnect());
  return {
    async publish() {
      try {
        await shared.publish(name, self);
      } catch (error) {
        log.warn({ err: error, channel: name }, 'could not tell the other processes of a change');
      }
    },
  };
}
