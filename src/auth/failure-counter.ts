// Failures per key within a fixed window, on rate-limiter-flexible: in this process's memory, or in Redis so that
// every process counts the same failures. A Redis that does not answer falls back to this process's memory (the
// library's insurance limiter) instead of failing sign-ins.
import type Redis from 'ioredis';
import type * as Flexible from 'rate-limiter-flexible';

// The library's index loads every store it supports (36 modules, tens of milliseconds of each start): the classes used
// come from their own files, typed as the index exports them, and the Redis one only where Redis counts.
const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof Flexible.RateLimiterMemory;
const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof Flexible.RateLimiterRes;
type RateLimiterMemory = Flexible.RateLimiterMemory;
type RateLimiterRes = Flexible.RateLimiterRes;
type RateLimiterAbstract = Flexible.RateLimiterAbstract;
const redisLimiter = () => require('rate-limiter-flexible/lib/RateLimiterRedis.js') as typeof Flexible.RateLimiterRedis;

/** Memory kept per counter in one process: beyond this many keys the oldest windows are dropped. */
const MAX_KEYS = 10_000;

export interface FailureCounter {
  /** Seconds until `key` is below its limit again; 0 when it is now. */
  blockedFor(key: string): Promise<number>;
  /** Counts a failure; the seconds `key` is refused for when it was already at its limit, else 0. */
  add(key: string): Promise<number>;
  /** Takes one failure back. */
  giveBack(key: string): Promise<void>;
  forget(key: string): Promise<void>;
}

export interface FailureCounterOptions {
  /** Failures allowed per window; 0 switches the counter off. */
  limit: number;
  windowSeconds: number;
  /** Names the counter's keys in a shared store. */
  name: string;
  redis: Redis | null;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function failureCounter({ limit, windowSeconds, name, redis }: FailureCounterOptions): FailureCounter {
  if (limit === 0) {
    return { blockedFor: async () => 0, add: async () => 0, giveBack: async () => {}, forget: async () => {} };
  }
  const options = { points: limit, duration: windowSeconds, keyPrefix: `anvil:sign-in:${name}` };
  const memory = boundedMemory(new RateLimiterMemory(options));
  const limiter: RateLimiterAbstract = redis
    ? new (redisLimiter())({ ...options, storeClient: redis, insuranceLimiter: memory.limiter })
    : memory.limiter;
  return {
    async blockedFor(key) {
      const state = await limiter.get(key);
      if (!state || state.consumedPoints < limit || state.msBeforeNext <= 0) return 0;
      return seconds(state.msBeforeNext);
    },
    async add(key) {
      try {
        const counted = await limiter.consume(key);
        if (!redis) memory.counted(key, counted);
        return 0;
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return seconds(refused.msBeforeNext);
        throw refused;
      }
    },
    async giveBack(key) {
      await limiter.reward(key);
    },
    async forget(key) {
      await limiter.delete(key);
    },
  };
}

/**
 * The memory limiter drops a key when its window ends; under a flood of distinct keys it also drops the oldest
 * windows beyond MAX_KEYS, so one process's memory stays bounded.
 */
function boundedMemory(limiter: RateLimiterMemory) {
  // Insertion order is window-start order (a new window re-inserts its key), so the oldest lead the map.
  const windows = new Map<string, number>();
  return {
    limiter,
    counted(key: string, state: RateLimiterRes) {
      if (!state.isFirstInDuration) return;
      const now = Date.now();
      windows.delete(key);
      windows.set(key, now + state.msBeforeNext);
      for (const [oldest, endsAt] of windows) {
        if (windows.size <= MAX_KEYS && endsAt > now) break;
        windows.delete(oldest);
        if (endsAt > now) void limiter.delete(oldest);
      }
    },
  };
}
