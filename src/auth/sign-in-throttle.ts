// Back-off after failed password sign-ins, counted per client address (an IPv6 client by its /64) and per
// account name (whether or not the account exists, so the answer reveals nothing). Once either count reaches
// its limit within the window, password sign-ins for that key are refused unchecked until the window ends.
// An attempt is counted before its password is checked (a check takes argon2's time, so concurrent attempts
// would otherwise all pass the limit), and given back when the password matched.
// Memory is bounded: each table keeps at most MAX_KEYS entries, the oldest windows dropped first.
import ipaddr from 'ipaddr.js';

export interface SignInThrottleOptions {
  /** Failures per address per window; 0 switches the address limit off. */
  perAddress: number;
  /** Failures per account per window; 0 switches the account limit off. */
  perAccount: number;
  windowSeconds: number;
}

/** One counted attempt, settled once its password was checked. */
export interface SignInAttempt {
  /** The password matched: the attempt is given back and the account's failures forgotten. */
  succeeded(): void;
}

export interface SignInThrottle {
  /** Seconds until a password sign-in from `address` to `account` is checked again; 0 when it is now. */
  retryAfter(address: string, account: string): number;
  /**
   * Counts an attempt from `address` at `account` as a failure until it succeeds; or, when either limit is
   * reached, the seconds until attempts are taken again.
   */
  reserve(address: string, account: string): SignInAttempt | { retryAfter: number };
}

const MAX_KEYS = 10_000;

export function signInThrottle({ perAddress, perAccount, windowSeconds }: SignInThrottleOptions): SignInThrottle {
  const windowMs = windowSeconds * 1000;
  const addresses = failureCounter(perAddress, windowMs);
  const accounts = failureCounter(perAccount, windowMs);
  const blockedFor = (addressKeyed: string, accountKeyed: string, now: number) =>
    Math.max(addresses.blockedFor(addressKeyed, now), accounts.blockedFor(accountKeyed, now));
  return {
    retryAfter: (address, account) => blockedFor(addressKey(address), account.toLowerCase(), Date.now()),
    reserve(address, account) {
      const now = Date.now();
      const [addressKeyed, accountKeyed] = [addressKey(address), account.toLowerCase()];
      const retryAfter = blockedFor(addressKeyed, accountKeyed, now);
      if (retryAfter > 0) return { retryAfter };
      const byAddress = addresses.add(addressKeyed, now);
      accounts.add(accountKeyed, now);
      return {
        succeeded() {
          addresses.giveBack(addressKeyed, byAddress);
          accounts.forget(accountKeyed);
        },
      };
    },
  };
}

interface Window {
  since: number;
  failures: number;
}

function failureCounter(limit: number, windowMs: number) {
  // Insertion order is window-start order (a new window re-inserts its key), so expired entries lead the map.
  const windows = new Map<string, Window>();
  const expired = (entry: Window, now: number) => now - entry.since >= windowMs;
  return {
    blockedFor(key: string, now: number): number {
      const entry = windows.get(key);
      if (limit === 0 || !entry || expired(entry, now) || entry.failures < limit) return 0;
      return Math.max(1, Math.ceil((entry.since + windowMs - now) / 1000));
    },
    /** Counts one failure; the window it went into, or null when the limit is off. */
    add(key: string, now: number): Window | null {
      if (limit === 0) return null;
      const entry = windows.get(key);
      if (entry && !expired(entry, now)) {
        entry.failures++;
        return entry;
      }
      const fresh = { since: now, failures: 1 };
      windows.delete(key);
      windows.set(key, fresh);
      for (const [oldest, window] of windows) {
        if (windows.size <= MAX_KEYS && !expired(window, now)) break;
        windows.delete(oldest);
      }
      return fresh;
    },
    /** Takes back a failure counted in `window`, unless that window has since been replaced. */
    giveBack(key: string, window: Window | null): void {
      if (window && windows.get(key) === window && window.failures > 0) window.failures--;
    },
    forget(key: string): void {
      windows.delete(key);
    },
  };
}

/** IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, which one client usually holds whole. */
function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
