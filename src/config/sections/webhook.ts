// [webhook] in app.ini.
import { str, int, bool, duration } from '../setting-types.ts';

export const webhook = {
  DELIVER_TIMEOUT: int(5, 1),
  // Forgejo's vocabulary: external, private, loopback, *, CIDRs and host globs, comma-separated
  ALLOWED_HOST_LIST: str('external'),
  SKIP_TLS_VERIFY: bool(false),
  PAYLOAD_COMMIT_LIMIT: int(15, 1),
  // Anvil's own: retries of a delivery that met a network error or a 5xx answer
  MAX_ATTEMPTS: int(5, 1),
  RETRY_BACKOFF: duration('5s', 1),
  // how often a process looks for due deliveries, how many it sends at once, and how long one stays held by a
  // process that died (renewed while it runs)
  QUEUE_POLL_INTERVAL: duration('1s', 10),
  DELIVERY_CONCURRENCY: int(4, 1),
  DELIVERY_LEASE: duration('10s', 1000),
} as const;
