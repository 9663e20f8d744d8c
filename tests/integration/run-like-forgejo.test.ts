// Running Anvil as a Forgejo administrator would, through the real process from dist/: a Forgejo-style app.ini
// and FORGEJO__ overrides, request ids and the access log, /metrics, TLS, reverse proxies and the sign-in
// throttle, one-line start-up failures.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { freePort } from '../helpers/free-port.ts';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

let dataDir: string;
let server: AnvilProcess | undefined;

function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANVIL_DATA_DIR: dataDir,
    FORGEJO__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__cron__ENABLED: 'false',
    ...extra,
  };
}

function cli(args: string[], env: NodeJS.ProcessEnv = baseEnv()) {
  return run(process.execPath, ['dist/src/cli.js', ...args], { cwd: root, env });
}

/** Runs the server expecting it to stop at once; its exit code and what it printed on standard error. */
function startFailing(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/start.cjs'], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string });

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-ops-'));
});
afterEach(() => {
  server?.child.kill('SIGKILL');
  server = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a Forgejo administrator's app.ini", () => {
  it('is read with comments, quotes, sizes and """ values; FORGEJO__ overrides it; unknown keys are warned about', async () => {
    const { stdout } = await cli([
      'admin',
      'user',
      'create',
      '--username',
      'root',
      '--password',
      'root-password-1',
      '--email',
      'root@example.com',
      '--admin',
      '--must-change-password=false',
      '--access-token',
    ]);
    const token = stdout.trim().split('\n').pop()!;
    fs.writeFileSync(
      path.join(dataDir, 'app.ini'),
      [
        'APP_NAME = Forge of tests ; inline comment',
        'RUN_USER = git',
        '[server]',
        'HTTP_ADDR = 127.0.0.1 # inline comment',
        'MAX_HEADER_SIZE = 32 KiB',
        '[api]',
        'MAX_RESPONSE_ITEMS = 3',
        '[log]',
        'ENABLE_ACCESS_LOG = true',
        '[metrics]',
        'ENABLED = true',
        'TOKEN = """metrics-',
        'secret"""',
        '[oauth2]',
        'JWT_SECRET = whatever',
      ].join('\n'),
    );
    const tokenFile = path.join(dataDir, 'metrics-token');
    fs.writeFileSync(tokenFile, 'file-secret\n');
    server = await startAnvilProcess((port) =>
      baseEnv({ FORGEJO__server__HTTP_PORT: String(port), FORGEJO__metrics__TOKEN__FILE: tokenFile }),
    );
    const base = server.base;

    const health = await fetch(`${base}api/healthz`, { headers: { 'X-Request-Id': 'probe-42' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toBe('probe-42');
    expect(await health.json()).toMatchObject({
      status: 'pass',
      description: 'Forge of tests',
      checks: { 'database:ping': [{ status: 'pass' }], 'cache:ping': [{ status: 'pass' }] },
    });
    const version = (await (await fetch(`${base}api/v1/version`)).json()) as { version: string };
    expect(version.version).toMatch(/^10\.0\.3\+gitea-1\.22\.0\.anvil-\d+\.\d+\.\d+/);
    const { stdout: cliVersion } = await cli(['--version']);
    expect(cliVersion.trim()).toBe(version.version);

    // Tokens in the header and in the query, neither of which may reach the log.
    const me = await fetch(`${base}api/v1/user`, { headers: { Authorization: `token ${token}` } });
    expect(me.status).toBe(200);
    const generated = me.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${base}api/v1/user?token=${token}`)).status).toBe(200);
    expect((await fetch(`${base}api/v1/user?access_token=${token}&x=1`)).status).toBe(200);
    for (let i = 0; i < 4; i++)
      await fetch(`${base}api/v1/admin/users`, {
        method: 'POST',
        headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: `user${i}`, email: `user${i}@example.com`, password: 'user-password-1' }),
      });
    await fetch(`${base}api/v1/orgs`, {
      method: 'POST',
      headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'org-one' }),
    });
    // [api] MAX_RESPONSE_ITEMS from the file: three per page at most.
    const page = await fetch(`${base}api/v1/admin/users?limit=50`, { headers: { Authorization: `token ${token}` } });
    expect(((await page.json()) as unknown[]).length).toBe(3);
    const totalAccounts = Number(page.headers.get('x-total-count'));

    expect((await fetch(`${base}metrics`)).status).toBe(401);
    expect((await fetch(`${base}metrics`, { headers: { Authorization: 'Bearer metrics-secret' } })).status).toBe(401);
    const scraped = await fetch(`${base}metrics`, { headers: { Authorization: 'Bearer file-secret' } });
    expect(scraped.status).toBe(200);
    const metrics = new Map(
      (await scraped.text())
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
    );
    expect(metrics.get('gitea_users')).toBe(5);
    expect(metrics.get('gitea_organizations')).toBe(1);
    expect(metrics.get('gitea_users')).toBe(totalAccounts);
    expect(metrics.get('gitea_repositories')).toBe(0);
    expect(metrics.get(`gitea_build_info{version="${version.version}"}`)).toBe(1);
    expect(metrics.get('anvil_http_requests_total{route="getVersion",method="GET",status="200"}')).toBe(1);
    expect([...metrics.keys()].some((name) => name.startsWith('process_resident_memory_bytes'))).toBe(true);

    const output = server.output();
    expect(output).not.toContain(token);
    expect(output).not.toContain('file-secret');
    const lines = logLines(output);
    expect(lines.find((line) => line.msg === 'settings Anvil does not read are ignored')).toMatchObject({
      keys: ['[oauth2]'],
    });
    const access = lines.filter((line) => line.msg === 'request');
    expect(access.find((line) => line.requestId === 'probe-42')).toMatchObject({
      req: { method: 'GET', path: '/api/healthz', remoteAddress: '127.0.0.1' },
      res: { status: 200 },
    });
    const mine = access.find((line) => line.requestId === generated)!;
    expect(mine).toMatchObject({ user: 'root', res: { status: 200 } });
    expect((mine.res as { bytes: number }).bytes).toBeGreaterThan(0);
    expect(typeof mine.durationMs).toBe('number');
    expect(access.some((line) => (line.req as { path: string }).path === '/api/v1/user?token=[redacted]')).toBe(true);
  });

  it('stops on an invalid value with one line naming section, key and value, before touching the database', async () => {
    fs.writeFileSync(path.join(dataDir, 'app.ini'), '[server]\nMAX_HEADER_SIZE = lots ; of bytes\n');
    const { code, stderr } = await startFailing(baseEnv());
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Invalid configuration: [server] MAX_HEADER_SIZE: "lots" is not a size (bytes, or e.g. 512k, 100MB, 1 GiB)',
    ]);
    expect(fs.existsSync(path.join(dataDir, 'anvil.db'))).toBe(false);
    fs.rmSync(path.join(dataDir, 'app.ini'));
    const mysql = await startFailing(baseEnv({ FORGEJO__database__DB_TYPE: 'mysql' }));
    expect(mysql.code).toBe(1);
    expect(mysql.stderr).toMatch(/^Invalid configuration: \[database\] DB_TYPE: "mysql" is not supported/);
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

(testDatabaseUrl ? describe : describe.skip)("[database] with Forgejo's keys", () => {
  it('serves from the PostgreSQL database that DB_TYPE, HOST, NAME, USER and PASSWD name', async () => {
    const { Client } = await import('pg');
    const url = new URL(testDatabaseUrl!);
    const name = `anvil_ops_${process.pid}_${Date.now()}`;
    const admin = new Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      fs.writeFileSync(
        path.join(dataDir, 'app.ini'),
        [
          '[database]',
          'DB_TYPE = postgres',
          `HOST = ${url.host} ; host:port`,
          `NAME = ${name}`,
          `USER = ${decodeURIComponent(url.username)}`,
          `PASSWD = "${decodeURIComponent(url.password)}"`,
          'SSL_MODE = disable',
        ].join('\n'),
      );
      server = await startAnvilProcess((port) =>
        baseEnv({ PORT: String(port), FORGEJO__server__HTTP_ADDR: '127.0.0.1' }),
      );
      const health = await fetch(`${server.base}api/healthz`);
      expect(health.status).toBe(200);
      await cli([
        'admin',
        'user',
        'create',
        '--username',
        'pg-user',
        '--password',
        'pg-password-1',
        '--email',
        'pg@example.com',
      ]);
      const migrated = new Client({ connectionString: testDatabaseUrl!.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) });
      await migrated.connect();
      const { rows } = await migrated.query(`SELECT "name" FROM "User"`);
      await migrated.end();
      expect(rows.map((row: { name: string }) => row.name)).toEqual(['pg-user']);
      expect(fs.existsSync(path.join(dataDir, 'anvil.db'))).toBe(false);
    } finally {
      server?.child.kill('SIGKILL');
      await server?.exited;
      server = undefined;
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('serving', () => {
  it('reports a port in use in one line and exits 1', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const { code, stderr } = await startFailing(
        baseEnv({ PORT: String(port), FORGEJO__server__HTTP_ADDR: '127.0.0.1' }),
      );
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `Cannot start: port ${port} on 127.0.0.1 is already in use by another program`,
      ]);
    } finally {
      taken.close();
    }
  });

  it('refuses to start without git on PATH, in one line, before touching the data directory', async () => {
    const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-no-git-'));
    const fresh = path.join(emptyPath, 'data');
    try {
      const { code, stderr } = await startFailing(baseEnv({ PATH: emptyPath, ANVIL_DATA_DIR: fresh }));
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        'Cannot start: git is not installed or not on PATH; Anvil needs git 2.30 or newer',
      ]);
      expect(fs.existsSync(fresh)).toBe(false);
    } finally {
      fs.rmSync(emptyPath, { recursive: true, force: true });
    }
  });

  it('serves HTTPS with the certificate [server] CERT_FILE and KEY_FILE name', async () => {
    const cert = path.join(dataDir, 'cert.pem');
    const key = path.join(dataDir, 'key.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    server = await startAnvilProcess((port) =>
      baseEnv({
        PORT: String(port),
        FORGEJO__server__HTTP_ADDR: '127.0.0.1',
        FORGEJO__server__PROTOCOL: 'https',
        FORGEJO__server__CERT_FILE: cert,
        FORGEJO__server__KEY_FILE: key,
      }),
    );
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`https://127.0.0.1:${server!.port}/api/v1/version`, { ca: fs.readFileSync(cert) }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(JSON.parse(body).version).toMatch(/gitea-/);
    // Plain HTTP on the TLS port gets no API answer.
    await expect(fetch(`http://127.0.0.1:${server.port}/api/v1/version`)).rejects.toThrow();
  });

  async function failSignIn(base: string, forwardedFor: string): Promise<number> {
    const response = await fetch(`${base}api/v1/user`, {
      headers: {
        Authorization: `Basic ${Buffer.from('nobody:wrong-password').toString('base64')}`,
        'X-Forwarded-For': forwardedFor,
      },
    });
    return response.status;
  }

  it('throttles sign-ins by the forwarded address from a trusted proxy', async () => {
    server = await startAnvilProcess((port) =>
      baseEnv({
        PORT: String(port),
        FORGEJO__server__HTTP_ADDR: '127.0.0.1',
        FORGEJO__security__PASSWORD_FAILURES_PER_ADDRESS: '2',
        FORGEJO__security__PASSWORD_FAILURES_PER_ACCOUNT: '0',
        FORGEJO__log__ENABLE_ACCESS_LOG: 'true',
      }),
    );
    expect(await failSignIn(server.base, '203.0.113.1')).toBe(401);
    expect(await failSignIn(server.base, '203.0.113.1')).toBe(401);
    expect(await failSignIn(server.base, '203.0.113.1')).toBe(429);
    // Another client behind the same proxy is not locked out with it.
    expect(await failSignIn(server.base, '203.0.113.2')).toBe(401);
    // Only the last hop is believed (REVERSE_PROXY_LIMIT = 1): a client's own header before it changes nothing.
    expect(await failSignIn(server.base, '198.51.100.9, 203.0.113.1')).toBe(429);
    const accessLines = () => logLines(server!.output()).filter((line) => line.msg === 'request');
    for (let i = 0; i < 100 && accessLines().length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const addresses = logLines(server.output())
      .filter((line) => line.msg === 'request')
      .map((line) => (line.req as { remoteAddress: string }).remoteAddress);
    expect(addresses).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.1']);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    server = await startAnvilProcess((port) =>
      baseEnv({
        PORT: String(port),
        FORGEJO__server__HTTP_ADDR: '127.0.0.1',
        FORGEJO__security__PASSWORD_FAILURES_PER_ADDRESS: '2',
        FORGEJO__security__PASSWORD_FAILURES_PER_ACCOUNT: '0',
        FORGEJO__security__REVERSE_PROXY_TRUSTED_PROXIES: '192.0.2.10/32',
      }),
    );
    expect(await failSignIn(server.base, '203.0.113.1')).toBe(401);
    expect(await failSignIn(server.base, '203.0.113.2')).toBe(401);
    expect(await failSignIn(server.base, '203.0.113.3')).toBe(429);
  });
});

describe('npm start', () => {
  it('passes SIGTERM to the server, which finishes the request in flight and exits 0', async () => {
    await cli([
      'admin',
      'user',
      'create',
      '--username',
      'writer',
      '--password',
      'writer-password',
      '--email',
      'w@example.com',
      '--must-change-password=false',
    ]);
    const auth = Buffer.from('writer:writer-password').toString('base64');
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: baseEnv({ PORT: String(port), FORGEJO__server__HTTP_ADDR: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on('close', resolve));
    for (let i = 0; i < 600 && !output.includes('Anvil is listening'); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(output).toContain('Anvil is listening');

    // A request whose body is half sent when the signal comes.
    const body = JSON.stringify({ Text: '# in flight', Mode: 'markdown' });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /api/v1/markdown HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    npm.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(body.slice(5));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('in flight');
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"shut down"');
  });
});
