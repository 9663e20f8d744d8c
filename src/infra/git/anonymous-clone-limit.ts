// Bounds how many of one kind of git work run at once: anonymous clones and fetches, which anyone can start.
import type { Settings } from '../../config/settings.ts';

export class ConcurrencyLimit {
  private running = 0;

  /** `max` 0 means no bound. */
  constructor(private readonly max: number) {}

  /** A release function for a free slot, or null when all are taken. */
  tryAcquire(): (() => void) | null {
    if (this.max > 0 && this.running >= this.max) return null;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }
}

// One limit per loaded configuration, so that each running app (and each test app) counts its own clones.
const anonymousCloneLimits = new WeakMap<Settings['git'], ConcurrencyLimit>();

export function anonymousCloneLimit(settings: Settings['git']): ConcurrencyLimit {
  let limit = anonymousCloneLimits.get(settings);
  if (!limit) anonymousCloneLimits.set(settings, (limit = new ConcurrencyLimit(settings.MAX_ANONYMOUS_CLONES)));
  return limit;
}
