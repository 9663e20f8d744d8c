// POST /repos/migrate against the network: which addresses count as local, pinning the checked address for every
// scheme (DNS rebinding), and failures that say nothing about the connection.
import { spawn } from 'node:child_process';
import dns from 'node:dns/promises';
import net from 'node:net';
import type { Server } from 'node:http';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { listen } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { isLocalNetworkAddress } from '../../src/domain/network-address.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
/** A git daemon (git://) serving the repository root, one `git daemon --inetd` per connection. */
let daemon: net.Server;
let daemonPort: number;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'source', auto_init: true })
    .expect(201);
  const root = t.context.settings.repository.ROOT;
  daemon = net.createServer((socket) => {
    const child = spawn('git', ['daemon', '--inetd', '--export-all', `--base-path=${root}`, root], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    socket.pipe(child.stdin);
    child.stdout.pipe(socket);
    socket.on('error', () => child.kill());
  });
  daemonPort = await new Promise<number>((resolve) =>
    daemon.listen(0, '127.0.0.1', () => resolve((daemon.address() as net.AddressInfo).port)),
  );
});
afterAll(async () => {
  jest.restoreAllMocks();
  await new Promise((resolve) => daemon.close(resolve));
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const migrations = () => t.context.settings.migrations as { ALLOW_LOCALNETWORKS: boolean };
afterEach(() => {
  migrations().ALLOW_LOCALNETWORKS = false;
  jest.restoreAllMocks();
});
const migrate = (user: TestUser, body: Record<string, unknown>) =>
  t.request().post('/api/v1/repos/migrate').set('Authorization', user.auth).send(body);
const sourcePath = () => `${alice.user.name.toLowerCase()}/source.git`;
const httpPort = () => new URL(base).port;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)),
  );
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Makes `name` resolve to 127.0.0.1 for Anvil's check only: git itself cannot resolve a .invalid name. */
function resolveForAnvilOnly(name: string): void {
  const lookup = dns.lookup.bind(dns);
  jest
    .spyOn(dns, 'lookup')
    .mockImplementation(((hostname: string, options: never) =>
      hostname === name
        ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
        : lookup(hostname, options)) as typeof dns.lookup);
}

describe('local addresses', () => {
  it.each([
    ['100.64.0.1', true],
    ['100.127.255.254', true],
    ['198.18.0.1', true],
    ['192.0.0.8', true],
    ['192.0.2.1', true],
    ['255.255.255.255', true],
    ['240.0.0.1', true],
    ['::ffff:100.64.0.1', true],
    ['::ffff:7f00:1', true],
    ['::7f00:1', true],
    ['64:ff9b::a00:1', true],
    ['2002:7f00:1::', true],
    ['2001:db8::1', true],
    ['fec0::1', true],
    ['not an address', true],
    ['100.128.0.1', false],
    ['1.1.1.1', false],
    ['2a00:1450:4001::1', false],
  ])('%s is local: %s', (address, local) => {
    expect(isLocalNetworkAddress(address)).toBe(local);
  });

  it('refuses shared, mapped and embedded local addresses and git:// sources on the local network', async () => {
    for (const clone_addr of [
      'http://100.64.0.1/x.git',
      'http://100.100.100.200/latest',
      'http://[::ffff:127.0.0.1]/x.git',
      'http://[::ffff:169.254.169.254]/x',
      'http://[64:ff9b::7f00:1]/x.git',
      'http://198.18.0.1/x.git',
      `git://127.0.0.1:${daemonPort}/${sourcePath()}`,
      `git://localhost:${daemonPort}/${sourcePath()}`,
      'git://[::1]/x.git',
    ]) {
      const res = await migrate(bob, { clone_addr, repo_name: 'refused' }).expect(422);
      expect(res.body.message).toMatch(/disallowed hosts/);
    }
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: 'refused' } })).toBe(0);
  });

  it('refuses a name that resolves to a local address unless ALLOW_LOCALNETWORKS', async () => {
    resolveForAnvilOnly('rebind.anvil.invalid');
    const res = await migrate(bob, {
      clone_addr: `http://rebind.anvil.invalid:${httpPort()}/${sourcePath()}`,
      repo_name: 'refused',
    }).expect(422);
    expect(res.body.message).toMatch(/disallowed hosts/);
  });
});

describe('pinning the checked address', () => {
  // The name resolves only through Anvil's check; had git resolved it again (as a rebinding DNS server would
  // exploit), the clone could not have succeeded.
  it.each(['http', 'git'] as const)(
    'clones %s:// sources from the address Anvil checked, never resolving the name again',
    async (scheme) => {
      migrations().ALLOW_LOCALNETWORKS = true;
      resolveForAnvilOnly('rebind.anvil.invalid');
      const port = scheme === 'git' ? daemonPort : httpPort();
      const clone_addr = `${scheme}://rebind.anvil.invalid:${port}/${sourcePath()}`;
      const res = await migrate(bob, {
        clone_addr,
        repo_name: `pinned-${scheme}`,
        mirror: true,
        mirror_interval: '1h',
      }).expect(201);
      expect(res.body).toMatchObject({ empty: false, mirror: true, original_url: clone_addr });
      // Mirror updates resolve and pin again.
      await t.context.services.repoMigrations.updateMirror(res.body.id);
      jest.restoreAllMocks();
      await expect(t.context.services.repoMigrations.updateMirror(res.body.id)).rejects.toThrow(
        /could not be resolved/,
      );
    },
  );
});

describe('failures', () => {
  it('answer a generic message without addresses, ports or timings', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    const closed = await closedPort();
    for (const clone_addr of [
      `http://127.0.0.1:${closed}/x.git`,
      `http://localhost:${closed}/x.git`,
      `git://127.0.0.1:${closed}/x.git`,
      `git://127.0.0.1:${daemonPort}/nobody/nothing.git`,
      `${base}${alice.user.name}/does-not-exist.git`,
    ]) {
      // Signed in, because Anvil challenges an anonymous git caller for a missing repository as for a private one.
      const credentials = clone_addr.startsWith(base) ? { auth_username: bob.user.name, auth_password: bob.token } : {};
      const res = await migrate(bob, { clone_addr, repo_name: 'failed', ...credentials }).expect(422);
      expect(res.body.message).toBe('Migration failed: the source repository could not be cloned.');
      expect(res.body.message).not.toMatch(
        new RegExp(`${closed}|${daemonPort}|127\\.0\\.0\\.1|::|connect|\\d+ ms`, 'i'),
      );
    }
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: 'failed' } })).toBe(0);
  });

  it('keep Forgejo’s authentication prefix without git’s output', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'hidden', auto_init: true, private: true })
      .expect(201);
    const res = await migrate(bob, {
      clone_addr: `${base}${alice.user.name}/hidden.git`,
      repo_name: 'failed',
      auth_username: 'x',
      auth_password: 'wrong',
    }).expect(422);
    expect(res.body.message).toBe('Authentication failed: the source refused the credentials.');
    expect(res.body.message).not.toContain(httpPort());
  });
});
