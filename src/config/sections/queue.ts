// [queue], [queue.webhook_sender], [queue.package_index] in app.ini.
import { str, duration, oneOf } from '../setting-types.ts';

export const QUEUE_TYPES = ['level', 'channel', 'dummy', 'redis'] as const;

// Background jobs (Forgejo's [queue]): level (Forgejo's default), channel and dummy keep them in the database job
// table; redis moves them to BullMQ on the Redis at CONN_STR. [queue.<name>] overrides per queue; empty inherits.
export const queue = {
  TYPE: oneOf('level', QUEUE_TYPES),
  CONN_STR: str(''),
  QUEUE_NAME: str('_queue'),
  // Anvil's own: how often each process moves job rows that did not reach Redis yet (it was down)
  RELAY_SWEEP_INTERVAL: duration('5s', 10),
} as const;

export const queueWebhookSender = {
  TYPE: oneOf('', ['', ...QUEUE_TYPES]),
  CONN_STR: str(''),
  QUEUE_NAME: str(''),
} as const;

/** The system-package repositories' index rebuilds (Anvil's own queue; Forgejo rebuilds them in the request). */
export const queuePackageIndex = queueWebhookSender;
