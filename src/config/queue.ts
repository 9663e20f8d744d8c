// Where each kind of background job queues, from Forgejo's keys: [queue] gives every queue's defaults and
// [queue.<name>] overrides them for one queue (Forgejo: modules/setting/queue.go). Forgejo's own types (level,
// channel, dummy) all mean the database job table here; redis means BullMQ on the Redis named by CONN_STR.
import type { RedisOptions } from 'bullmq';
import { ConfigError, type Settings } from './settings.ts';

/** Each job kind's queue, by Forgejo's queue name, so a [queue.<name>] section means what it means in Forgejo. */
export const JOB_QUEUES = {
  webhook_delivery: 'webhook_sender',
  'package-index': 'package_index',
} as const;

export type JobKind = keyof typeof JOB_QUEUES;

export type QueueBackend =
  | { type: 'database' }
  | {
      type: 'redis';
      connection: RedisOptions;
      /** BullMQ's queue name: Forgejo's queue name and QUEUE_NAME suffix. */ queueName: string;
    };

export interface QueueSettings {
  /** Forgejo's queue name, e.g. webhook_sender. */
  readonly name: string;
  readonly backend: QueueBackend;
}

/** Forgejo's default CONN_STR for a redis queue. */
const DEFAULT_REDIS = 'redis://127.0.0.1:6379/0';

/** The settings of the queue a job kind goes to. */
export function queueSettingsFor(settings: Settings, kind: JobKind): QueueSettings {
  const name = JOB_QUEUES[kind];
  const common = settings.queue;
  const own = settings[`queue.${name}`];
  const type = own.TYPE || common.TYPE;
  if (type !== 'redis') return { name, backend: { type: 'database' } };
  const connStr = own.CONN_STR || common.CONN_STR || DEFAULT_REDIS;
  return {
    name,
    backend: {
      type: 'redis',
      connection: parseRedisConnStr(connStr, `[queue${own.CONN_STR ? `.${name}` : ''}] CONN_STR`),
      queueName: `${name}${own.QUEUE_NAME || common.QUEUE_NAME}`,
    },
  };
}

/** The Redis all processes share state in when [queue] TYPE=redis (its CONN_STR); null otherwise. */
export function sharedRedisConnection(settings: Settings): RedisOptions | null {
  if (settings.queue.TYPE !== 'redis') return null;
  return parseRedisConnStr(settings.queue.CONN_STR || DEFAULT_REDIS);
}

/**
 * Forgejo's redis connection strings: redis://[user:password@]host[:port][/db], rediss://… (TLS), and
 * redis+socket:///path/to/socket?db=N. Cluster and sentinel URLs are refused: BullMQ needs one Redis.
 */
export function parseRedisConnStr(connStr: string, key = '[queue] CONN_STR'): RedisOptions {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(connStr.trim())?.[1].toLowerCase();
  if (scheme && !['redis', 'rediss', 'redis+socket'].includes(scheme)) {
    throw new ConfigError(
      `${key}: "${scheme}://" is not supported; use redis://, rediss:// or redis+socket:// (one Redis, not a cluster or sentinel)`,
    );
  }
  let url: URL;
  try {
    url = new URL(connStr.trim());
  } catch {
    throw new ConfigError(`${key}: "${connStr}" is not a redis:// URL`);
  }
  const auth: RedisOptions = {};
  if (url.username) auth.username = decodeURIComponent(url.username);
  if (url.password) auth.password = decodeURIComponent(url.password);
  // Forgejo also reads the password from the query (?password=…).
  if (!auth.password && url.searchParams.get('password')) auth.password = url.searchParams.get('password')!;
  const db = (text: string | null | undefined, where: string): number => {
    if (!text) return 0;
    if (!/^\d+$/.test(text)) throw new ConfigError(`${key}: the database ${where} "${text}" is not a number`);
    return Number(text);
  };
  switch (url.protocol) {
    case 'redis:':
    case 'rediss:':
      if (!url.hostname) throw new ConfigError(`${key}: "${connStr}" names no host`);
      return {
        ...auth,
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port ? Number(url.port) : 6379,
        db: db(url.pathname.replace(/^\//, '') || url.searchParams.get('db'), 'index'),
        ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname } } : {}),
      };
    case 'redis+socket:':
      if (!url.pathname || url.pathname === '/') throw new ConfigError(`${key}: "${connStr}" names no socket path`);
      return { ...auth, path: decodeURIComponent(url.pathname), db: db(url.searchParams.get('db'), 'index') };
    default:
      throw new ConfigError(`${key}: "${connStr}" is not a redis:// URL`);
  }
}
