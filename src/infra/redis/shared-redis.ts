// The Redis all processes share when [queue] TYPE=redis, for state that must be the same in every process (the
// sign-in throttle's counts). It connects on first use, so a CLI command never does; a command that finds Redis
// away fails within COMMAND_TIMEOUT_MS instead of waiting for it, and its caller falls back.
import Redis, { type RedisOptions } from 'ioredis';

const COMMAND_TIMEOUT_MS = 2000;

export function sharedRedis(connection: RedisOptions): Redis {
  return new Redis({ ...connection, lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS });
}
