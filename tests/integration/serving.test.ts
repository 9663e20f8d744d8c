// Serving as Forgejo does, through the real process from dist/: a start from a read-only checkout, /api/healthz
// failing (424) while PostgreSQL refuses connections and passing again after, http+unix on a socket path, and
// [server] ENABLE_GZIP.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { freePort } from '../helpers/free-port.ts';
import { freshPostgresDatabase } from '../helpers/test-app.ts';

const root = path.resolve(__dirname, '../..');
const START_MS = 45_000;
const NOBODY = 65534;

interface Started {
  readonly child: ChildProcess;
  output(): string;
}

const running: ChildProcess[] = [];
const temporary: string[] = [];

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGKILL');
      await closed;
    }
  }
  for (const dir of temporary.splice(0)) {
    execFileSync('chmod', ['-R', 'u+w', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Starts the server as npm start does (scripts/start.cjs) and resolves once it logged that it listens. */
async function startServer(
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; uid?: number; gid?: number } = {},
): Promise<Started> {
  const child = spawn(process.execPath, ['scripts/start.cjs'], {
    cwd: options.cwd ?? root,
    env: {
      PATH: process.env.PATH,
      ANVIL__log__LEVEL: 'info',
      ANVIL__cron__ENABLED: 'false',
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
      ...env,
    },
    uid: options.uid,
    gid: options.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  const listening = new Promise<boolean>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"Anvil is listening"')) resolve(true);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('close', () => resolve(false));
    setTimeout(() => resolve(false), START_MS).unref();
  });
  if (!(await listening)) throw new Error(`Anvil did not start: ${output.slice(-2000)}`);
  return { child, output: () => output };
}

/** A GET over TCP or a unix socket: status, headers and the raw body bytes. */
function get(
  target: { port: number } | { socketPath: string },
  route: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ ...target, host: '127.0.0.1', path: route, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Every file below `dir` with its size and modification time, symbolic links not followed. */
function snapshot(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isSymbolicLink() || entry.parentPath === dir)
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const stat = fs.lstatSync(file);
      return `${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

describe('a read-only checkout', () => {
  it('starts with a writable data directory, answers /api/healthz and writes nothing in the checkout', async () => {
    const checkout = path.join(tempDir('anvil-readonly-'), 'anvil');
    fs.mkdirSync(checkout);
    for (const entry of ['package.json', 'dist', 'spec', 'generated', 'prisma', 'assets', 'scripts']) {
      if (fs.existsSync(path.join(root, entry)))
        fs.cpSync(path.join(root, entry), path.join(checkout, entry), { recursive: true });
    }
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(checkout, 'node_modules'));
    execFileSync('chmod', ['-R', 'a-w,a+rX', checkout]);
    fs.chmodSync(path.dirname(checkout), 0o755);
    const dataDir = tempDir('anvil-readonly-data-');
    // root writes through file modes; the server runs as nobody so that the read-only modes hold it too.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) fs.chownSync(dataDir, NOBODY, NOBODY);
    const before = snapshot(checkout);
    const port = await freePort();
    await startServer(
      {
        HOME: dataDir,
        ANVIL_DATA_DIR: dataDir,
        PORT: String(port),
        ANVIL__server__HTTP_ADDR: '127.0.0.1',
      },
      { cwd: checkout, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
    );
    const health = await get({ port }, '/api/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString())).toMatchObject({ status: 'pass' });
    // ENABLE_GZIP is off by default: no compressed answer, asked for or not.
    const contract = await get({ port }, '/swagger.v1.json', { 'Accept-Encoding': 'gzip' });
    expect(contract.status).toBe(200);
    expect(contract.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(contract.body.toString())).toHaveProperty('swagger', '2.0');
    expect(snapshot(checkout)).toEqual(before);
    expect(fs.existsSync(path.join(dataDir, 'anvil.db'))).toBe(true);
  });
});

describe('[server] ENABLE_GZIP', () => {
  it('compresses a JSON answer for a client that accepts gzip, and only for it', async () => {
    const dataDir = tempDir('anvil-gzip-');
    const port = await freePort();
    await startServer({
      HOME: dataDir,
      ANVIL_DATA_DIR: dataDir,
      PORT: String(port),
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      FORGEJO__server__ENABLE_GZIP: 'true',
    });
    const compressed = await get({ port }, '/swagger.v1.json', { 'Accept-Encoding': 'gzip' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-type']).toMatch(/^application\/json/);
    // Forgejo's API headers are kept: no-transform speaks to proxies, not to the server that compresses.
    expect(compressed.headers['cache-control']).toBe('max-age=0, private, must-revalidate, no-transform');
    expect(JSON.parse(zlib.gunzipSync(compressed.body).toString())).toHaveProperty('swagger', '2.0');
    const plain = await get({ port }, '/swagger.v1.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toHaveProperty('swagger', '2.0');
    expect(compressed.body.length).toBeLessThan(plain.body.length / 3);
  });
});

describe('PROTOCOL http+unix', () => {
  it('serves on the socket HTTP_ADDR names, and a second server on it stops with one line', async () => {
    const dataDir = tempDir('anvil-unix-');
    const socketPath = path.join(dataDir, 'anvil.sock');
    const env = {
      HOME: dataDir,
      ANVIL_DATA_DIR: dataDir,
      FORGEJO__server__PROTOCOL: 'http+unix',
      FORGEJO__server__HTTP_ADDR: socketPath,
    };
    await startServer(env);
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    const version = await get({ socketPath }, '/api/v1/version');
    expect(version.status).toBe(200);
    expect(JSON.parse(version.body.toString()).version).toMatch(/\+gitea-/);

    const second = spawn(process.execPath, ['scripts/start.cjs'], {
      cwd: root,
      env: { PATH: process.env.PATH, ANVIL__cron__ENABLED: 'false', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    running.push(second);
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => second.once('close', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `Cannot start: the socket ${socketPath} is already in use by another program`,
    ]);
    // The first server still has its socket.
    expect((await get({ socketPath }, '/api/healthz')).status).toBe(200);
  });
});

const baseUrl = process.env.TEST_DATABASE_URL;
if (!baseUrl) console.log('healthz on PostgreSQL skipped: set TEST_DATABASE_URL');

(baseUrl ? describe : describe.skip)('/api/healthz when PostgreSQL goes away', () => {
  it('answers 424 with database:ping failing while connections are refused, and 200 once they are taken again', async () => {
    const database = await freshPostgresDatabase(baseUrl!, { empty: true });
    const name = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const dataDir = tempDir('anvil-health-');
      const port = await freePort();
      const server = await startServer({
        HOME: dataDir,
        ANVIL_DATA_DIR: dataDir,
        PORT: String(port),
        ANVIL__server__HTTP_ADDR: '127.0.0.1',
        DATABASE_URL: database.url,
      });
      expect((await get({ port }, '/api/healthz')).status).toBe(200);

      // The database refuses new connections and drops the open ones, as a stopped server would.
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const failing = await get({ port }, '/api/healthz');
      expect(failing.status).toBe(424);
      expect(failing.headers['content-type']).toMatch(/^application\/(health\+)?json/);
      const document = JSON.parse(failing.body.toString());
      expect(document).toMatchObject({
        status: 'fail',
        checks: {
          'database:ping': [{ status: 'fail', output: expect.any(String) }],
          'cache:ping': [{ status: 'pass' }],
        },
      });

      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await get({ port }, '/api/healthz')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.end();
      for (const child of running.splice(0)) child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await database.drop();
    }
  });
});
