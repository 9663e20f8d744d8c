// Password sign-ins: back-off per address and per account, bounded argon2 work off the event loop, and the
// same cost for unknown and known accounts.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import argon2 from 'argon2';
import { basicAuth, createTestOrg, createTestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('back-off per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '0',
      ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '3',
      // Long enough that the failures and the refusal land inside one window on a loaded machine.
      ANVIL__security__PASSWORD_FAILURE_WINDOW_SECONDS: '6',
    });
  });
  afterAll(() => t.close());

  it('answers 429 for the account after its limit, from then on unchecked, and accepts the password again after the window', async () => {
    const alice = await createTestUser(t);
    const bob = await createTestUser(t);
    for (let i = 0; i < 3; i++)
      await t.request().get('/api/v1/user').set('Authorization', basicAuth(alice.user.name, 'wrong')).expect(401);
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const refused = await t
        .request()
        .get('/api/v1/user')
        .set('Authorization', basicAuth(alice.user.name.toUpperCase(), alice.password))
        .expect(429);
      expect(refused.body).toEqual({
        message: expect.stringMatching(/too many failed sign-in attempts/),
        url: 'http://localhost:3000/api/swagger',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(6);
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    // Tokens and other accounts are not affected.
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(200);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(bob.user.name, bob.password)).expect(200);

    await sleep(6100);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(alice.user.name, alice.password)).expect(200);
  });

  it('throttles an unknown name exactly as a known one, so the answer reveals nothing', async () => {
    for (let i = 0; i < 3; i++)
      await t.request().get('/api/v1/user').set('Authorization', basicAuth('nobody-by-this-name', 'wrong')).expect(401);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth('nobody-by-this-name', 'wrong')).expect(429);
  });

  it('forgets the failures of an account after a successful sign-in', async () => {
    const carol = await createTestUser(t);
    for (let i = 0; i < 2; i++)
      await t.request().get('/api/v1/user').set('Authorization', basicAuth(carol.user.name, 'wrong')).expect(401);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(carol.user.name, carol.password)).expect(200);
    for (let i = 0; i < 2; i++)
      await t.request().get('/api/v1/user').set('Authorization', basicAuth(carol.user.name, 'wrong')).expect(401);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(carol.user.name, carol.password)).expect(200);
  });
});

describe('back-off per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '4',
      ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '0',
      ANVIL__security__PASSWORD_FAILURE_WINDOW_SECONDS: '6',
    });
  });
  afterAll(() => t.close());

  it('answers 429 to the address after its limit of failures over any names, then lets it sign in after the window', async () => {
    const dave = await createTestUser(t);
    for (const name of ['one', 'two', 'three', dave.user.name])
      await t.request().get('/api/v1/version').set('Authorization', basicAuth(name, 'wrong')).expect(401);
    const refused = await t
      .request()
      .get('/api/v1/user')
      .set('Authorization', basicAuth(dave.user.name, dave.password))
      .expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await t.request().get('/api/v1/user').set('Authorization', dave.auth).expect(200);
    await sleep(6100);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(dave.user.name, dave.password)).expect(200);
  });
});

describe.each([
  [
    'account',
    { ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '0', ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '10' },
  ],
  [
    'address',
    { ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '10', ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '0' },
  ],
])('40 concurrent wrong passwords under a limit of 10 per %s', (limit, settings) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...settings, ANVIL__security__PASSWORD_FAILURE_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('checks 10 (in-flight attempts count) and answers the other 30 with 429 unchecked', async () => {
    const erin = await createTestUser(t);
    // One account for the account limit; 40 names from the one test client for the address limit.
    const names = Array.from({ length: 40 }, (_, i) => (limit === 'account' ? erin.user.name : `spray-${i}`));
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const answers = await Promise.all(
        names.map((name, i) =>
          t
            .request()
            .get('/api/v1/user')
            .set('Authorization', basicAuth(name, `wrong-${i}`)),
        ),
      );
      const statuses: Record<number, number> = {};
      for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
      expect(statuses).toEqual({ 401: 10, 429: 30 });
      expect(verify).toHaveBeenCalledTimes(10);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('password checks at the default cost', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$2$19456$1$32',
      ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '0',
      ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '0',
    });
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const timed = async (authorization: string, expected: number): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/user`, { headers: { authorization } });
    await res.arrayBuffer();
    expect(res.status).toBe(expected);
    return performance.now() - started;
  };

  it('keeps token requests fast while 40 wrong-password requests are in flight', async () => {
    const alice = await createTestUser(t);
    await timed(alice.auth, 200);
    let settled = 0;
    const attack = Array.from({ length: 40 }, (_, i) =>
      timed(basicAuth(i % 2 ? alice.user.name : `ghost${i}`, `wrong-${i}`), 401).finally(() => settled++),
    );
    const latencies: number[] = [];
    while (settled < 40 || latencies.length < 10) {
      latencies.push(await timed(alice.auth, 200));
      await sleep(10);
    }
    const attackLatencies = await Promise.all(attack);
    // Relative to the password checks' own time, so a slow machine slows both: hashing on the event loop would make
    // each token request wait for the checks queued before it.
    expect(median(latencies)).toBeLessThan(median(attackLatencies) / 3);
  });

  it('checks one argon2 hash for a known account, an unknown name and a passwordless name alike, at a similar cost', async () => {
    const bob = await createTestUser(t);
    const org = await createTestOrg(t, bob.user);
    const cases = { known: bob.user.name, unknown: 'no-such-account', organization: org.name };
    const verify = jest.spyOn(argon2, 'verify');
    const costs: Record<string, number[]> = { known: [], unknown: [], organization: [] };
    try {
      for (let round = 0; round < 6; round++) {
        for (const [label, name] of Object.entries(cases)) {
          verify.mockClear();
          costs[label].push(await timed(basicAuth(name, 'wrong-password'), 401));
          expect(verify).toHaveBeenCalledTimes(1);
        }
      }
    } finally {
      verify.mockRestore();
    }
    // Generous on a shared machine: the point is that the unknown path is not an order of magnitude cheaper.
    for (const label of ['unknown', 'organization']) {
      expect(median(costs[label]) / median(costs.known)).toBeGreaterThan(0.5);
    }
  });
});
