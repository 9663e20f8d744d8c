// Back-off after failed password sign-ins, counted per client address (an IPv6 client by its /64) and per
// account name (whether or not the account exists, so the answer reveals nothing). Once either count reaches
// its limit within the window, password sign-ins for that key are refused unchecked until the window ends.
// An attempt is counted before its password is checked (a check takes argon2's time, so concurrent attempts
// would otherwise all pass the limit), and given back when the password matched.
// The counts live in this process's memory, or in Redis when one is given, shared by every process using it.
import type Redis from 'ioredis';
import ipaddr from 'ipaddr.js';
import { failureCounter } from './failure-counter.ts';

export interface SignInThrottleOptions {
  /** Failures per address per window; 0 switches the address limit off. */
  perAddress: number;
  /** Failures per account per window; 0 switches the account limit off. */
  perAccount: number;
  windowSeconds: number;
  /** Where the counts live when several processes share them; this process's memory without. */
  redis?: Redis | null;
}

/** One counted attempt, settled once its password was checked. */
export interface SignInAttempt {
  /** The password matched: the attempt is given back and the account's failures forgotten. */
  succeeded(): Promise<void>;
}

export interface SignInThrottle {
  /** Seconds until a password sign-in from `address` to `account` is checked again; 0 when it is now. */
  retryAfter(address: string, account: string): Promise<number>;
  /**
   * Counts an attempt from `address` at `account` as a failure until it succeeds; or, when either limit is
   * reached, the seconds until attempts are taken again.
   */
  reserve(address: string, account: string): Promise<SignInAttempt | { retryAfter: number }>;
}

export function signInThrottle({
  perAddress,
  perAccount,
  windowSeconds,
  redis = null,
}: SignInThrottleOptions): SignInThrottle {
  const addresses = failureCounter({ limit: perAddress, windowSeconds, name: 'address', redis });
  const accounts = failureCounter({ limit: perAccount, windowSeconds, name: 'account', redis });
  return {
    async retryAfter(address, account) {
      const [byAddress, byAccount] = await Promise.all([
        addresses.blockedFor(addressKey(address)),
        accounts.blockedFor(account.toLowerCase()),
      ]);
      return Math.max(byAddress, byAccount);
    },
    async reserve(address, account) {
      const [addressKeyed, accountKeyed] = [addressKey(address), account.toLowerCase()];
      const addressRefused = await addresses.add(addressKeyed);
      if (addressRefused > 0) return { retryAfter: addressRefused };
      const accountRefused = await accounts.add(accountKeyed);
      if (accountRefused > 0) {
        await addresses.giveBack(addressKeyed);
        return { retryAfter: accountRefused };
      }
      return {
        async succeeded() {
          await Promise.all([addresses.giveBack(addressKeyed), accounts.forget(accountKeyed)]);
        },
      };
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
