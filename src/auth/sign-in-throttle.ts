// Back-off after failed password sign-ins, counted per client address (an IPv6 client by its /64) and per
// account name (whether or not the account exists, so the answer reveals nothing). Once either count reaches
// its limit within the window, password sign-ins for that key are refused unchecked until the window ends.
// Memory is bounded: each table keeps at most MAX_KEYS entries, the oldest windows dropped first.
import ipaddr from 'ipaddr.js';

export interface SignInThrottleOptions {
  /** Failures per address per window; 0 switches the address limit off. */
  perAddress: number;
  /** Failures per account per window; 0 switches the account limit off. */
  perAccount: number;
  windowSeconds: number;
}

export interface SignInThrottle {
  /** Seconds until a password sign-in from `address` to `account` is checked again; 0 when it is now. */
  retryAfter(address: string, account: string): number;
  failed(address: string, account: string): void;
  succeeded(account: string): void;
}

const MAX_KEYS = 10_000;

export function signInThrottle({ perAddress, perAccount, windowSeconds }: SignInThrottleOptions): SignInThrottle {
  const windowMs = windowSeconds * 1000;
  const addresses = failureCounter(perAddress, windowMs);
  const accounts = failureCounter(perAccount, windowMs);
  return {
    retryAfter(address, account) {
      const now = Date.now();
      return Math.max(addresses.blockedFor(addressKey(address), now), accounts.blockedFor(account.toLowerCase(), now));
    },
    failed(address, account) {
      const now = Date.now();
      addresses.add(addressKey(address), now);
      accounts.add(account.toLowerCase(), now);
    },
    succeeded(account) {
      accounts.forget(account.toLowerCase());
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
    add(key: string, now: number): void {
      if (limit === 0) return;
      const entry = windows.get(key);
      if (entry && !expired(entry, now)) {
        entry.failures++;
        return;
      }
      windows.delete(key);
      windows.set(key, { since: now, failures: 1 });
      for (const [oldest, window] of windows) {
        if (windows.size <= MAX_KEYS && !expired(window, now)) break;
        windows.delete(oldest);
      }
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
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
