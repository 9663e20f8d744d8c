import { type SignInAttempt, type SignInThrottle, signInThrottle } from '../../src/auth/sign-in-throttle.ts';

/** An attempt whose password did not match: reserved and never given back. */
async function fail(throttle: SignInThrottle, address: string, account: string): Promise<void> {
  expect(await throttle.reserve(address, account)).not.toHaveProperty('retryAfter');
}

describe('signInThrottle', () => {
  let now = 1_000_000;
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('refuses an address after its limit of failures until the window ends', async () => {
    const throttle = signInThrottle({ perAddress: 3, perAccount: 0, windowSeconds: 60 });
    for (const account of ['a', 'b']) await fail(throttle, '192.0.2.1', account);
    expect(await throttle.retryAfter('192.0.2.1', 'c')).toBe(0);
    await fail(throttle, '192.0.2.1', 'c');
    expect(await throttle.retryAfter('192.0.2.1', 'anyone')).toBe(60);
    expect(await throttle.retryAfter('192.0.2.2', 'anyone')).toBe(0);
    now += 59_500;
    expect(await throttle.retryAfter('192.0.2.1', 'anyone')).toBe(1);
    now += 500;
    expect(await throttle.retryAfter('192.0.2.1', 'anyone')).toBe(0);
  });

  it('refuses an account name from every address after its limit, and forgets it after a success', async () => {
    const throttle = signInThrottle({ perAddress: 0, perAccount: 2, windowSeconds: 60 });
    await fail(throttle, '192.0.2.1', 'Alice');
    await fail(throttle, '198.51.100.7', 'alice');
    expect(await throttle.retryAfter('203.0.113.9', 'ALICE')).toBe(60);
    expect(await throttle.retryAfter('203.0.113.9', 'bob')).toBe(0);
    now += 60_000;
    await ((await throttle.reserve('192.0.2.1', 'alice')) as SignInAttempt).succeeded();
    await fail(throttle, '192.0.2.1', 'alice');
    expect(await throttle.retryAfter('203.0.113.9', 'alice')).toBe(0);
  });

  it('counts attempts in flight: once the limit is reserved, further ones are refused before any check', async () => {
    const throttle = signInThrottle({ perAddress: 5, perAccount: 3, windowSeconds: 60 });
    const inFlight = await Promise.all(Array.from({ length: 3 }, (_, i) => throttle.reserve(`192.0.2.${i}`, 'carol')));
    expect(inFlight.every((attempt) => !('retryAfter' in attempt))).toBe(true);
    expect(await throttle.reserve('192.0.2.9', 'carol')).toEqual({ retryAfter: 60 });
    expect(await throttle.reserve('192.0.2.9', 'dave')).not.toHaveProperty('retryAfter');
  });

  it('gives an attempt back to its address when the password matched', async () => {
    const throttle = signInThrottle({ perAddress: 2, perAccount: 0, windowSeconds: 60 });
    for (let i = 0; i < 5; i++) await ((await throttle.reserve('192.0.2.1', `user${i}`)) as SignInAttempt).succeeded();
    await fail(throttle, '192.0.2.1', 'x');
    expect(await throttle.retryAfter('192.0.2.1', 'x')).toBe(0);
    await fail(throttle, '192.0.2.1', 'x');
    expect(await throttle.retryAfter('192.0.2.1', 'x')).toBe(60);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', async () => {
    const throttle = signInThrottle({ perAddress: 2, perAccount: 0, windowSeconds: 60 });
    await fail(throttle, '2001:db8:1:2::1', 'a');
    await fail(throttle, '2001:db8:1:2:ffff::9', 'a');
    expect(await throttle.retryAfter('2001:db8:1:2::abcd', 'a')).toBe(60);
    expect(await throttle.retryAfter('2001:db8:1:3::1', 'a')).toBe(0);
    await fail(throttle, '::ffff:192.0.2.1', 'a');
    await fail(throttle, '192.0.2.1', 'a');
    expect(await throttle.retryAfter('192.0.2.1', 'a')).toBe(60);
  });

  it('keeps bounded memory: beyond 10,000 keys the oldest windows are dropped', async () => {
    const throttle = signInThrottle({ perAddress: 1, perAccount: 0, windowSeconds: 3600 });
    await fail(throttle, '192.0.2.1', 'a');
    expect(await throttle.retryAfter('192.0.2.1', 'a')).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) await fail(throttle, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'a');
    expect(await throttle.retryAfter('192.0.2.1', 'a')).toBe(0);
    expect(await throttle.retryAfter('10.0.39.15', 'a')).toBeGreaterThan(0);
  });
});
