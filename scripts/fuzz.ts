// `npm run fuzz -- [--requests N] [--seed S]`: contract fuzzer. Starts Anvil in process on a throwaway data
// directory, makes fixtures (admin, outsider, public and private organizations, a private repository, a team, a
// hook, a package), then sends N requests built from generated/openapi.json with mutated path segments, query
// values, bodies, content types, encodings and credentials, as admin, outsider and anonymous; typed fields and
// parameters also get int64-edge and non-finite numbers, exotic date-times and prototype-key strings
// (scripts/fuzz-values.ts), and bodies may be empty or `null` under a JSON content type. A finding is a 5xx,
// an answer slower than 5 s, a JSON 4xx without a string `message`, a non-JSON 4xx the contract does not
// declare, a stack trace, an internal path or a fixture secret in a body, or a dead server. Prints each finding
// and `findings: N` last; exits 1 when N > 0.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createApp } from '../src/http/app.ts';
import { bootstrap } from '../src/app/bootstrap.ts';
import { loadSettings } from '../src/config/settings.ts';
import { createLogger } from '../src/infra/observability/logger.ts';
import { hashAccessToken, lastEight, newAccessToken } from '../src/auth/access-token.ts';
import type { User } from '../src/db/prisma.ts';
import type { AppContext } from '../src/app/app-context.ts';
import { jsonText, PROTOTYPE_KEYS, typedOddBodyValue, typedOddQueryText } from './fuzz-values.ts';
import { seededRandom } from './seeded-random.ts';

const SLOW_MS = 5_000;
const GIVE_UP_MS = 30_000;
const HOOK_SECRET = 'fuzz-hook-secret-7f3a9c';
const root = path.resolve(__dirname, '..');

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs a non-negative integer`);
  return value;
}

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}
interface Operation {
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  bodySchema: Schema | null;
  bodyTypes: string[];
  responses: Record<string, unknown>;
}

const spec = JSON.parse(fs.readFileSync(path.join(root, 'generated/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, Schema>>;
};

function resolve<T>(value: T): T {
  let current = value as unknown as Schema;
  for (let depth = 0; current && typeof current.$ref === 'string' && depth < 10; depth++) {
    const [, , kind, name] = (current.$ref as string).split('/');
    current = spec.components[kind]?.[name] as Schema;
  }
  return current as unknown as T;
}

function operationsOfSpec(): Operation[] {
  const result: Operation[] = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    const shared = (item.parameters as unknown as Parameter[] | undefined) ?? [];
    for (const [method, raw] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const parameters = [...shared, ...((raw.parameters as Parameter[] | undefined) ?? [])].map((p) => resolve(p));
      const content = (resolve(raw.requestBody as Schema | undefined)?.content ?? {}) as Record<
        string,
        { schema?: Schema }
      >;
      const bodyTypes = Object.keys(content);
      result.push({
        id: String(raw.operationId),
        method: method.toUpperCase(),
        path: route,
        parameters,
        bodySchema: bodyTypes.length ? resolve(content[bodyTypes[0]].schema ?? {}) : null,
        bodyTypes,
        responses: (raw.responses ?? {}) as Record<string, unknown>,
      });
    }
  }
  return result.sort((a, b) => a.id.localeCompare(b.id));
}

/** True when this status of this operation may answer with something other than JSON: the contract says so, or
 * it is Forgejo's plain-text 422 of the markup routes (`Unknown mode: …`). */
function declaresNonJson(op: Operation, status: number): boolean {
  if (status === 422 && /^\/api\/v1\/(markup|markdown)/.test(op.path)) return true;
  const response = resolve((op.responses[String(status)] ?? op.responses.default) as Schema | undefined);
  const content = (response?.content ?? {}) as Record<string, unknown>;
  return Object.keys(content).some((type) => !type.includes('json'));
}

interface Fixtures {
  orgName: string;
  privateOrgName: string;
  repoName: string;
  teamId: number;
  hookId: number;
  packageName: string;
  adminName: string;
  outsiderName: string;
}

async function tokenFor(context: AppContext, user: User): Promise<string> {
  const secret = newAccessToken();
  await context.db.prisma.accessToken.create({
    data: {
      userId: user.id,
      name: `fuzz-${user.name}`,
      tokenHash: hashAccessToken(secret),
      tokenLastEight: lastEight(secret),
      scope: 'all',
    },
  });
  return secret;
}

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

function send(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Sent> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        headers: { ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          // Keep the head of big downloads only: findings are about error bodies.
          if (size < 1 << 20) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolvePromise({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Date.now() - started,
          }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(GIVE_UP_MS, () => request.destroy(new Error(`no answer within ${GIVE_UP_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

const ODD_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  'a%2Fb',
  '%00',
  '%E2%9C%93%F0%9F%92%A9',
  '%C0%AE',
  '%FF',
  'x'.repeat(400),
  '0',
  '-1',
  '9223372036854775808',
  '99999999999999999999999',
  '1.5',
  '1e3',
  '%20',
  'null',
  'true',
  '%EF%BC%AF%EF%BD%92%EF%BD%87',
  '%252e%252e',
  ...PROTOTYPE_KEYS,
];
const ODD_SCALARS: unknown[] = [
  '',
  'x'.repeat(70_000),
  '\u0000',
  '😀'.repeat(300),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  -1,
  0,
  // eslint-disable-next-line no-loss-of-precision -- int64 bounds as a client would write them
  9223372036854775807,
  9223372036854775808,
  1e308,
  -9.5,
  2 ** 63,
  true,
  false,
  null,
  [],
  {},
  ['a'],
  { a: 1 },
  'ｕｎｉｃｏｄｅ',
  ' spaced ',
  '\r\n',
  'null',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A value that fits the schema, so a request reaches the rules rather than the validator. */
function sensibleValue(schema: Schema | undefined, name: string, fixtures: Fixtures, random: () => number): unknown {
  const s = resolve(schema) ?? {};
  if (Array.isArray(s.enum) && s.enum.length) return pick(random, s.enum);
  switch (s.type) {
    case 'integer':
      return name === 'id' ? pick(random, [1, fixtures.teamId, fixtures.hookId]) : pick(random, [1, 2, 10]);
    case 'number':
      return 1;
    case 'boolean':
      return random() < 0.5;
    case 'array':
      return [sensibleValue(s.items as Schema, name, fixtures, random)];
    case 'object':
      return sensibleObject(s, fixtures, random);
    default:
      return sensibleString(name, fixtures, random);
  }
}

function sensibleString(name: string, fixtures: Fixtures, random: () => number): string {
  switch (name) {
    case 'org':
    case 'owner':
      return pick(random, [fixtures.orgName, fixtures.privateOrgName, fixtures.adminName]);
    case 'username':
    case 'user':
      return pick(random, [fixtures.adminName, fixtures.outsiderName]);
    case 'repo':
      return fixtures.repoName;
    case 'packagename':
    case 'name':
      return pick(random, [fixtures.packageName, `fz${Math.floor(random() * 1e6)}`]);
    case 'packageversion':
    case 'version':
      return '1.0.0';
    case 'filename':
      return 'file.bin';
    case 'type':
      return 'generic';
    case 'email':
      return `fz${Math.floor(random() * 1e6)}@example.com`;
    case 'url':
      return 'http://127.0.0.1:9/hook';
    default:
      return `fz${Math.floor(random() * 1e6)}`;
  }
}

function sensibleObject(schema: Schema, fixtures: Fixtures, random: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [key, value] of Object.entries(properties)) {
    if (required.has(key) || random() < 0.3) out[key] = sensibleValue(value, key, fixtures, random);
  }
  return out;
}

function mutateObject(value: Record<string, unknown>, schema: Schema, random: () => number): unknown {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const keys = Object.keys(properties);
  const copy = { ...value };
  const rounds = 1 + Math.floor(random() * 3);
  for (let i = 0; i < rounds && keys.length; i++) {
    const key = pick(random, keys);
    copy[key] = random() < 0.5 ? typedOddBodyValue(resolve(properties[key]), random) : pick(random, ODD_SCALARS);
  }
  if (random() < 0.1) copy['__proto__'] = { isAdmin: true };
  return copy;
}

interface Caller {
  label: string;
  auth: Record<string, string>;
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  note: string;
}

function build(op: Operation, fixtures: Fixtures, caller: Caller, random: () => number): Built {
  const notes: string[] = [];
  const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name);
    if (random() < 0.25) {
      notes.push(`path ${name}`);
      return pick(random, ODD_SEGMENTS);
    }
    return encodeURIComponent(String(sensibleValue(parameter?.schema, name, fixtures, random)));
  });
  const query: string[] = [];
  for (const parameter of op.parameters.filter((p) => p.in === 'query')) {
    if (random() < 0.5) continue;
    const odd = random() < 0.4;
    if (odd) notes.push(`query ${parameter.name}`);
    const value = !odd
      ? sensibleValue(parameter.schema, parameter.name, fixtures, random)
      : random() < 0.5
        ? typedOddQueryText(resolve(parameter.schema), random)
        : pick(random, ODD_SCALARS);
    query.push(
      `${encodeURIComponent(parameter.name)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`,
    );
  }
  if (random() < 0.05) query.push('page=%zz', 'limit=%');
  const headers: Record<string, string> = {
    ...caller.auth,
    Accept: pick(random, ['application/json', '*/*', 'text/html', 'application/xml']),
  };
  let body: Buffer | undefined;
  if (op.bodyTypes.length || (op.method !== 'GET' && op.method !== 'DELETE' && random() < 0.2)) {
    const schema = op.bodySchema ?? {};
    const declared = op.bodyTypes[0] ?? 'application/json';
    const roll = random();
    let text: string;
    if (roll < 0.3) {
      const value = sensibleValue(schema, 'body', fixtures, random);
      text = typeof value === 'string' && !declared.includes('json') ? value : JSON.stringify(value);
    } else if (roll < 0.55) {
      notes.push('mutated body');
      text = jsonText(
        schema.type === 'object' || schema.properties
          ? mutateObject(sensibleObject(schema, fixtures, random), schema, random)
          : pick(random, ODD_SCALARS),
      );
    } else if (roll < 0.62) {
      notes.push('empty body');
      text = '';
    } else if (roll < 0.66) {
      notes.push('null body');
      text = 'null';
    } else if (roll < 0.77) {
      notes.push('malformed JSON');
      text = pick(random, [
        '{',
        '{"a":',
        '[1,2',
        '{"name":"x",}',
        '\u0000\u0001',
        'nul',
        '{"a":1}{"b":2}',
        '"'.repeat(5),
        '{"a":'.repeat(5000),
      ]);
    } else if (roll < 0.86) {
      notes.push('deep JSON');
      text = '['.repeat(20_000) + ']'.repeat(20_000);
    } else {
      notes.push('huge JSON');
      text = JSON.stringify({ name: 'x'.repeat(2_000_000) });
    }
    body = Buffer.from(text, 'utf8');
    const typeRoll = random();
    if (typeRoll < 0.6) headers['Content-Type'] = declared;
    else {
      const type = pick(random, [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/xml',
        'application/octet-stream',
        'garbage',
        '',
      ]);
      notes.push(`content-type "${type}"`);
      if (type) headers['Content-Type'] = type;
    }
    const encodingRoll = random();
    if (encodingRoll < 0.08) {
      notes.push('gzip');
      body = gzipSync(body);
      headers['Content-Encoding'] = 'gzip';
    } else if (encodingRoll < 0.14) {
      notes.push('lying gzip');
      headers['Content-Encoding'] = 'gzip';
    } else if (encodingRoll < 0.18) {
      notes.push('unknown encoding');
      headers['Content-Encoding'] = pick(random, ['br', 'x-fuzz', 'deflate, gzip']);
    }
  }
  const full = query.length ? `${url}?${query.join('&')}` : url;
  return { method: op.method, url: full, headers, body, note: notes.join(', ') || 'sensible' };
}

function findingsOf(op: Operation, built: Built, sent: Sent, internals: string[]): string[] {
  const out: string[] = [];
  if (sent.status >= 500 && sent.status !== 501) out.push(`status ${sent.status}`);
  if (sent.ms > SLOW_MS) out.push(`slow: ${sent.ms} ms`);
  const type = String(sent.headers['content-type'] ?? '');
  if (sent.status >= 400 && sent.status < 500 && built.method !== 'HEAD') {
    if (type.includes('json')) {
      let message: unknown;
      try {
        message = (JSON.parse(sent.body) as { message?: unknown }).message;
      } catch {
        message = undefined;
      }
      if (typeof message !== 'string') out.push(`4xx JSON without a string message: ${sent.body.slice(0, 120)}`);
    } else if (sent.body.length > 0 && !declaresNonJson(op, sent.status)) {
      out.push(`4xx not JSON (${type || 'no content type'}): ${sent.body.slice(0, 120)}`);
    }
  }
  if (/\n\s+at .+:\d+:\d+/.test(sent.body) || /\bat (?:async )?[\w.<>]+ \(/.test(sent.body))
    out.push('stack trace in body');
  for (const internal of internals) if (sent.body.includes(internal)) out.push(`internal path in body: ${internal}`);
  if (sent.body.includes(HOOK_SECRET)) out.push('hook secret in body');
  return out;
}

/**
 * The admin may delete the outsider, demote itself or revoke tokens along the way; a caller who is no longer what
 * its label says is put back (user, flags, a new token) so the rest of the run still tests that role.
 */
async function restoreCaller(
  context: AppContext,
  port: number,
  caller: Caller,
  name: string,
  isAdmin: boolean,
): Promise<void> {
  const me = await send(port, 'GET', '/api/v1/user', caller.auth);
  if (me.status === 200 && (JSON.parse(me.body) as { is_admin?: boolean }).is_admin === isAdmin) return;
  const { prisma } = context.db;
  const existing = await prisma.user.findFirst({ where: { lowerName: name } });
  const user = existing
    ? await prisma.user.update({
        where: { id: existing.id },
        data: { isAdmin, isActive: true, isRestricted: false, prohibitLogin: false, mustChangePassword: false },
      })
    : await context.services.users.create({
        username: name,
        email: `${name}@example.com`,
        password: 'fuzz-password-3',
        isAdmin,
        mustChangePassword: false,
      });
  caller.auth = { Authorization: `token ${await tokenFor(context, user)}` };
}

async function makeFixtures(context: AppContext, port: number): Promise<{ fixtures: Fixtures; callers: Caller[] }> {
  const { users, orgs } = context.services;
  const admin = await users.create({
    username: 'fuzzadmin',
    email: 'fuzzadmin@example.com',
    password: 'fuzz-password-1',
    isAdmin: true,
    mustChangePassword: false,
  });
  const outsider = await users.create({
    username: 'fuzzoutsider',
    email: 'fuzzoutsider@example.com',
    password: 'fuzz-password-2',
    isAdmin: false,
    mustChangePassword: false,
  });
  const adminAuth = { Authorization: `token ${await tokenFor(context, admin)}` };
  const outsiderAuth = { Authorization: `token ${await tokenFor(context, outsider)}` };
  const org = await orgs.createForUser(admin, { username: 'fuzzorg', visibility: 'public' });
  const privateOrg = await orgs.createForUser(admin, { username: 'fuzzprivate', visibility: 'private' });
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const headers = { ...adminAuth, 'Content-Type': 'application/json' };
  const expectOk = (label: string, sent: Sent) => {
    if (sent.status >= 300) throw new Error(`fixture ${label}: ${sent.status} ${sent.body}`);
    return JSON.parse(sent.body || '{}') as { id: number };
  };
  expectOk(
    'repo',
    await send(
      port,
      'POST',
      `/api/v1/orgs/${org.name}/repos`,
      headers,
      json({ name: 'fuzzrepo', private: true, auto_init: true }),
    ),
  );
  expectOk(
    'private org repo',
    await send(
      port,
      'POST',
      `/api/v1/orgs/${privateOrg.name}/repos`,
      headers,
      json({ name: 'fuzzrepo', auto_init: false }),
    ),
  );
  const team = expectOk(
    'team',
    await send(
      port,
      'POST',
      `/api/v1/orgs/${org.name}/teams`,
      headers,
      json({ name: 'fuzzteam', permission: 'write', units: ['repo.code'] }),
    ),
  );
  const hook = expectOk(
    'hook',
    await send(
      port,
      'POST',
      `/api/v1/orgs/${org.name}/hooks`,
      headers,
      json({
        type: 'gitea',
        config: { url: 'http://127.0.0.1:9/hook', content_type: 'json', secret: HOOK_SECRET },
        events: ['push'],
        active: false,
      }),
    ),
  );
  expectOk(
    'package',
    await send(
      port,
      'PUT',
      `/api/packages/${org.name}/generic/fuzzpkg/1.0.0/file.bin`,
      { ...adminAuth, 'Content-Type': 'application/octet-stream' },
      Buffer.from('fuzz'),
    ),
  );
  return {
    fixtures: {
      orgName: org.name,
      privateOrgName: privateOrg.name,
      repoName: 'fuzzrepo',
      teamId: team.id,
      hookId: hook.id,
      packageName: 'fuzzpkg',
      adminName: admin.name,
      outsiderName: outsider.name,
    },
    callers: [
      { label: 'admin', auth: adminAuth },
      { label: 'outsider', auth: outsiderAuth },
      { label: 'anonymous', auth: {} },
    ],
  };
}

const BAD_CREDENTIALS: Record<string, string>[] = [
  { Authorization: 'token nonsense' },
  { Authorization: `token ${'f'.repeat(40)}` },
  { Authorization: 'Basic ' + Buffer.from('fuzzadmin:wrong').toString('base64') },
  { Authorization: 'Basic !!!notbase64' },
  { Authorization: 'Basic ' + Buffer.from('\u0000:\u0000').toString('base64') },
  { Authorization: 'Bearer ' + 'x'.repeat(5000) },
  { Authorization: 'token' },
  { Authorization: 'Digest username="a"' },
];

async function main(): Promise<void> {
  const requests = argument('requests', 2000);
  const seed = argument('seed', 18);
  const random = seededRandom(seed);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-fuzz-'));
  const settings = loadSettings({
    ANVIL_DATA_DIR: dataDir,
    ANVIL_ROOT_URL: 'http://localhost:3000/',
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__log__LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
  });
  const context = await bootstrap(settings, createLogger(settings.log.LEVEL));
  const server = http.createServer(createApp(context));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  // Source paths as a stack or an error would show them; a bare "/src/" is Forgejo's own web path (…/src/branch/…).
  const internals = [dataDir, fs.realpathSync(dataDir), root, 'dist/src/', 'node_modules'];
  const started = Date.now();
  let findings = 0;
  let previous = '';
  let previousEnded = Date.now();
  const statuses = new Map<number, number>();
  try {
    const { fixtures, callers } = await makeFixtures(context, port);
    const operations = operationsOfSpec();
    for (let i = 0; i < requests; i++) {
      const op = operations[Math.floor(random() * operations.length)];
      const caller =
        random() < 0.08 ? { label: 'bad credentials', auth: pick(random, BAD_CREDENTIALS) } : pick(random, callers);
      const built = build(op, fixtures, caller, random);
      const label = `#${i} ${op.id} as ${caller.label} [${built.note}] ${built.method} ${built.url.slice(0, 160)}`;
      let sent: Sent;
      try {
        sent = await send(port, built.method, built.url, built.headers, built.body);
      } catch (error) {
        findings++;
        // A reset can be the previous answer's fault: a connection dropped without `Connection: close`.
        console.log(
          `FINDING ${label}: no answer (${(error as Error).message}) ${Date.now() - previousEnded} ms after the previous answer: ${previous}`,
        );
        const alive = await send(port, 'GET', '/api/v1/version', {}).then(
          () => true,
          () => false,
        );
        if (!alive) {
          findings++;
          console.log('FINDING dead server');
          break;
        }
        continue;
      }
      previous = `${label} -> ${sent.status} ${String(sent.headers.connection ?? '')}`;
      previousEnded = Date.now();
      statuses.set(sent.status, (statuses.get(sent.status) ?? 0) + 1);
      if (built.method !== 'GET' && sent.status < 300) {
        await restoreCaller(context, port, callers[0], fixtures.adminName, true);
        await restoreCaller(context, port, callers[1], fixtures.outsiderName, false);
      }
      for (const finding of findingsOf(op, built, sent, internals)) {
        findings++;
        console.log(`FINDING ${label}: ${finding}`);
      }
    }
  } finally {
    await new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
    await context.db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const summary = [...statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  console.log(
    `requests: ${requests}, seed: ${seed}, seconds: ${((Date.now() - started) / 1000).toFixed(1)}, statuses: ${summary}`,
  );
  console.log(`findings: ${findings}`);
  process.exit(findings > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  console.log('findings: 1');
  process.exit(1);
});
