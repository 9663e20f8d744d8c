// How many started requests may be running at once before the next one waits, adapted to how busy the event loop
// is. When the process's CPU is the bottleneck, every request in flight shares it: on PostgreSQL each round trip of
// each request waited behind every other's work, so a comment (eleven round trips) took 3-4 times as long as a
// cached GET, and the CI-bot mix's p99 was twice its goal. Kept to the few that keep the loop busy, requests run
// quickly once started and the rest wait their turn, first come, first served. While requests wait, the limit shrinks
// when the loop is busy and grows when it has room (the running ones wait on a distant database, a slow upload, a git
// process or a hook), so work never waits long while the CPU idles.
import type { Response } from 'express';

/** Enough for a few requests to overlap their database round trips. */
const MIN_LIMIT = 4;
const MAX_LIMIT = 4096;
/** How often the limit may change: the event loop's utilisation is measured over this window. */
const WINDOW_MS = 50;
/** Utilisation above which the loop has no room for more requests, and below which it has. */
const BUSY = 0.9;
const ROOMY = 0.75;

export class RunningLimit {
  private limit: number;
  private running = 0;
  readonly windowMs: number;
  private windowStart = performance.eventLoopUtilization();

  constructor(options: { initial?: number; windowMs?: number } = {}) {
    this.limit = options.initial ?? 16;
    this.windowMs = options.windowMs ?? WINDOW_MS;
  }

  /** Whether one more request may start now (while some wait: the limit follows the loop's utilisation). */
  hasRoom(): boolean {
    if (this.running < this.limit) return true;
    this.adapt();
    return this.running < this.limit;
  }

  /**
   * Follows a request's response from its arrival; the function returned counts the request as running from its
   * start until its handler ends the response (not at all when it ended while waiting: its client left). The socket's
   * flush that follows costs the loop nothing: a cached GET stops counting in the turn it started.
   */
  follow(res: Response, ended: () => void): () => void {
    let state: 'waiting' | 'running' | 'ended' = 'waiting';
    const end = () => {
      if (state === 'running') {
        this.running--;
        ended();
      }
      state = 'ended';
    };
    res.once('prefinish', end);
    res.once('finish', end);
    res.once('close', end);
    return () => {
      if (state !== 'waiting') return;
      state = 'running';
      this.running++;
    };
  }

  private adapt(): void {
    const window = performance.eventLoopUtilization(this.windowStart);
    if (window.idle + window.active < this.windowMs) return;
    this.windowStart = performance.eventLoopUtilization();
    // Down fast and up slowly: a window the loop spent partly idle may also mean the database is the one saturated.
    if (window.utilization > BUSY) this.limit = Math.max(MIN_LIMIT, Math.floor(this.limit * 0.75));
    else if (window.utilization < ROOMY) this.limit = Math.min(MAX_LIMIT, this.limit + 1);
  }
}
