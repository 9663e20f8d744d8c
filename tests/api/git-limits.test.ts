// Bounds on git over HTTP, with the real git client: pack size, request size (inflated), anonymous clones at once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Server } from 'node:http';
import type superagent from 'superagent';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp({
    // A dot in a key is written _0x2E_, as Forgejo's environment-to-ini reads it.
    ANVIL__git_0x2E_config__receive_0x2E_maxInputSize: '64k',
    ANVIL__git__HTTP_MAX_REQUEST_BUFFER: '32k',
    ANVIL__git__MAX_ANONYMOUS_CLONES: '1',
  });
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'open', auto_init: true })
    .expect(201);
  await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: 'target' }).expect(201);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'closed', private: true, auto_init: true })
    .expect(201);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** superagent parser: the answer as latin1 text (git answers are binary packet lines). */
function asText(response: superagent.Response, done: (error: Error | null, body: string) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(null, Buffer.concat(chunks).toString('latin1')));
}

const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;

async function mainSha(): Promise<string> {
  return (
    await gitOk(['ls-remote', `${withCredentials(base, alice.token)}${alice.user.name}/open.git`, 'refs/heads/main'])
  ).split('\t')[0];
}

describe('pack size (receive.maxInputSize)', () => {
  const remote = () => `${withCredentials(base, alice.user.name, alice.token)}${alice.user.name}/target.git`;

  it('refuses a push whose pack is over the limit, and git shows why', async () => {
    const dir = tempDir();
    await gitOk(['init', '-q', dir]);
    // Random bytes do not compress: the pack is about as large as the file.
    fs.writeFileSync(path.join(dir, 'big.bin'), crypto.randomBytes(200 * 1024));
    await gitOk(['add', 'big.bin'], dir);
    await gitOk(['commit', '-q', '-m', 'big'], dir);
    const push = await git(['push', remote(), 'HEAD:refs/heads/main'], dir);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/pack exceeds maximum allowed size/);
    expect(await gitOk(['ls-remote', remote()])).toBe('');
  });

  it('accepts a push under the limit', async () => {
    const dir = tempDir();
    await gitOk(['init', '-q', dir]);
    fs.writeFileSync(path.join(dir, 'small.txt'), 'small\n');
    await gitOk(['add', 'small.txt'], dir);
    await gitOk(['commit', '-q', '-m', 'small'], dir);
    await gitOk(['push', '-q', remote(), 'HEAD:refs/heads/main'], dir);
    expect(await gitOk(['ls-remote', remote()])).toMatch(/refs\/heads\/main/);
  });
});

describe('request size (HTTP_MAX_REQUEST_BUFFER)', () => {
  /** An upload-pack request that negotiates with `count` unknown commits: large, and very compressible. */
  async function negotiation(count: number): Promise<Buffer> {
    const have = pkt(`have ${'1'.repeat(40)}\n`);
    return Buffer.from(`${pkt(`want ${await mainSha()}\n`)}0000${have.repeat(count)}${pkt('done\n')}`);
  }

  const post = (body: Buffer, gzip: boolean) =>
    t
      .request()
      .post(`/${alice.user.name}/open.git/git-upload-pack`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/x-git-upload-pack-request')
      .set(gzip ? { 'Content-Encoding': 'gzip' } : {})
      .send(gzip ? zlib.gzipSync(body) : body)
      .buffer(true)
      .parse(asText);

  it('answers a request under the limit', async () => {
    const res = await post(await negotiation(10), true).expect(200);
    expect(res.body).toContain('PACK');
  });

  it.each([
    ['gzip-compressed', true],
    ['plain', false],
  ])('stops a %s request that inflates past the limit, with a message for git', async (_label, gzip) => {
    const body = await negotiation(20_000);
    expect(body.length).toBeGreaterThan(900 * 1024);
    const res = await post(body, gzip).expect(200);
    expect(res.body).toMatch(/^[0-9a-f]{4}ERR request too large: more than 32768 bytes\n$/);
  });

  it.each([
    ['gzip', /ERR request body does not decode as gzip\n$/],
    ['br', /ERR unsupported content encoding "br"\n$/],
  ])('refuses a body whose Content-Encoding %s does not apply, with a message for git', async (encoding, message) => {
    const res = await t
      .request()
      .post(`/${alice.user.name}/open.git/git-upload-pack`)
      .set('Content-Type', 'application/x-git-upload-pack-request')
      .set('Content-Encoding', encoding)
      .send(Buffer.from(`${pkt('want x\n')}0000`))
      .buffer(true)
      .parse(asText)
      .expect(200);
    expect(res.body).toMatch(message);
  });

  it('still serves a real clone and fetch', async () => {
    const dir = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', `${withCredentials(base, alice.token)}${alice.user.name}/open.git`, dir]);
    await gitOk(['fetch', '-q', 'origin'], dir);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
  });
});

describe('anonymous clones at once (MAX_ANONYMOUS_CLONES)', () => {
  /**
   * Starts an anonymous upload-pack round whose body stops inside a packet line, so that git waits and the round
   * holds its clone slot until the socket closes. A round that finds the slot taken (by a probe of `waitFor`, on
   * a slow machine) is answered at once: `refused` says so, and the caller starts another.
   */
  function holdSlot(): { socket: net.Socket; refused: () => boolean } {
    const { port } = new URL(base);
    const socket = net.connect(Number(port), '127.0.0.1');
    let answered = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
    socket.write(
      [
        `POST /${alice.user.name}/open.git/git-upload-pack HTTP/1.1`,
        'Host: localhost',
        'Content-Type: application/x-git-upload-pack-request',
        'Transfer-Encoding: chunked',
        '',
        '2\r\n00\r\n',
      ].join('\r\n'),
    );
    return { socket, refused: () => answered.includes('ERR too many anonymous clones') };
  }

  const anonymousRound = async () =>
    (
      await t
        .request()
        .post(`/${alice.user.name}/open.git/git-upload-pack`)
        .set('Content-Type', 'application/x-git-upload-pack-request')
        .send(Buffer.from('0000'))
        .buffer(true)
        .parse(asText)
    ).body as string;

  /** Polls for up to 15 s: a loaded machine may take a while to start the held round. */
  async function waitFor(condition: () => Promise<boolean>): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt++) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('condition not reached');
  }

  it('refuses a further anonymous clone with a message git shows, while signed-in clones go on', async () => {
    let held = holdSlot();
    try {
      await waitFor(async () => {
        if (held.refused()) {
          held.socket.destroy();
          held = holdSlot();
          return false;
        }
        return (await anonymousRound()).includes('ERR too many anonymous clones');
      });
      const refused = await git(['clone', '-q', `${base}${alice.user.name}/open.git`, path.join(tempDir(), 'anon')]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/remote error: too many anonymous clones at once; try again later/);
      // git sends credentials only when challenged, so only a private repository's clone is a signed-in one.
      await gitOk([
        'clone',
        '-q',
        `${withCredentials(base, alice.token)}${alice.user.name}/closed.git`,
        path.join(tempDir(), 'signed-in'),
      ]);
    } finally {
      held.socket.destroy();
    }
    await waitFor(async () => !(await anonymousRound()).includes('ERR'));
    await gitOk(['clone', '-q', `${base}${alice.user.name}/open.git`, path.join(tempDir(), 'anon-after')]);
  });
});
