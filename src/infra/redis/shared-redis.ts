// The Redis all processes share when [queue] TYPE=redis, for state that must be the same in every process (the
// sign-in throttle's counts). It connects on first use, so a CLI command never does; a command that finds Redis
// away fails within COMMAND_TIMEOUT_MS instead of waiting for it, and its caller falls back.
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { Logger } from '../observability/logger.ts';

const COMMAND_TIMEOUT_MS = 2000;

export function sharedRedis(connection: RedisOptions, log: Logger): Redis {
  // Loaded here so a process without a shared Redis never loads the client.
  const RedisClient = require('ioredis') as typeof Redis;
  const client = new RedisClient({
    ...connection,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  // ioredis reports every failed reconnection; one warning per outage is enough.
  let away = false;
  client.on('error', (error: Error) => {
    if (away) return;
    away = true;
    log.warn({ err: error }, 'the shared redis does not answer; each process counts sign-in failures alone meanwhile');
  });
  client.on('ready', () => {
    if (away) log.info('the shared redis answers again');
    away = false;
  });
  return client;
}
