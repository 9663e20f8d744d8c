// A 1 GiB layer pushed to a running Anvil three ways (monolithic POST ?digest=, chunked PATCHes with Content-Range,
// one streamed PATCH without a length), then pulled: the server's peak resident memory (VmHWM of the spawned
// process) grows by less than 50 MiB over what a small push already took, so no body is ever held whole in memory.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const MiB = 1024 * 1024;
const LAYER_MIB = 1024;
const GROWTH_LIMIT = 50 * MiB;
const hasProc = fs.existsSync('/proc/self/status');
if (!hasProc) console.log('container large layer test skipped: no /proc to read the peak memory from');

/** The layer's bytes, MiB by MiB: one random block made distinct per MiB and per layer. */
const block = randomBytes(MiB);
function* mebibytes(seed: number, from: number, to: number): Generator<Buffer> {
  for (let i = from; i < to; i++) {
    const chunk = Buffer.from(block);
    chunk.writeUInt32BE(seed, 0);
    chunk.writeUInt32BE(i, 4);
    yield chunk;
  }
}

function digestOf(seed: number, mib: number): string {
  const hash = createHash('sha256');
  for (const chunk of mebibytes(seed, 0, mib)) hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}

/** Peak resident memory of a process, in bytes (/proc/PID/status VmHWM). */
function peakMemory(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body's length and SHA-256 (read as it streams, never kept). */
  length: number;
  digest: string;
}

(hasProc ? describe : describe.skip)('a 1 GiB layer pushed to a running Anvil', () => {
  let anvil: ClientTestServer;
  let server: AnvilProcess;
  let authorization: string;

  function send(method: string, route: string, body?: Iterable<Buffer>, headers: http.OutgoingHttpHeaders = {}) {
    return new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          method,
          path: route,
          headers: { Authorization: authorization, ...headers },
          // A connection each: hashing 1 GiB blocks this process for longer than the server keeps an idle connection
          // (5 s), so a kept-alive socket could be reused in the very turn its close arrives (socket hang up).
          agent: false,
        },
        (response) => {
          const hash = createHash('sha256');
          let length = 0;
          response.on('data', (chunk: Buffer) => {
            length += chunk.length;
            hash.update(chunk);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              headers: response.headers,
              length,
              digest: `sha256:${hash.digest('hex')}`,
            }),
          );
          response.on('error', reject);
        },
      );
      // A connection the server ended shows why: whether it still runs, and the end of its log.
      request.on('error', (error) =>
        reject(
          new Error(
            `${method} ${route}: ${error.message}; the server ${
              server.child.exitCode === null && server.child.signalCode === null
                ? 'still runs'
                : `exited (${server.child.exitCode ?? server.child.signalCode})`
            }; its log ends:\n${server.output().slice(-3000)}`,
          ),
        ),
      );
      if (body) Readable.from(body).pipe(request);
      else request.end();
    });
  }

  const octets = (length?: number) => ({
    'Content-Type': 'application/octet-stream',
    ...(length === undefined ? {} : { 'Content-Length': length }),
  });

  async function pushMonolithic(image: string, seed: number, mib: number): Promise<string> {
    const digest = digestOf(seed, mib);
    const done = await send(
      'POST',
      `/v2/${image}/blobs/uploads/?digest=${digest}`,
      mebibytes(seed, 0, mib),
      octets(mib * MiB),
    );
    expect(done.status).toBe(201);
    return digest;
  }

  async function pushChunked(image: string, seed: number, mib: number, chunks: number): Promise<string> {
    const digest = digestOf(seed, mib);
    const started = await send('POST', `/v2/${image}/blobs/uploads/`);
    expect(started.status).toBe(202);
    let location = started.headers.location!;
    const step = mib / chunks;
    for (let from = 0; from < mib; from += step) {
      const range = `${from * MiB}-${(from + step) * MiB - 1}`;
      const patched = await send('PATCH', location, mebibytes(seed, from, from + step), {
        ...octets(step * MiB),
        'Content-Range': range,
      });
      expect([patched.status, patched.headers.range]).toEqual([202, `0-${(from + step) * MiB - 1}`]);
      location = patched.headers.location!;
    }
    const finished = await send('PUT', `${location}?digest=${digest}`, [], octets(0));
    expect(finished.status).toBe(201);
    return digest;
  }

  async function pushStreamed(image: string, seed: number, mib: number): Promise<string> {
    const digest = digestOf(seed, mib);
    const started = await send('POST', `/v2/${image}/blobs/uploads/`);
    const patched = await send('PATCH', started.headers.location!, mebibytes(seed, 0, mib), octets());
    expect([patched.status, patched.headers.range]).toEqual([202, `0-${mib * MiB - 1}`]);
    const finished = await send('PUT', `${patched.headers.location!}?digest=${digest}`, [], octets(0));
    expect(finished.status).toBe(201);
    return digest;
  }

  async function expectPulled(image: string, digest: string, mib: number): Promise<void> {
    const pulled = await send('GET', `/v2/${image}/blobs/${digest}`);
    expect([pulled.status, pulled.length, pulled.digest]).toEqual([200, mib * MiB, digest]);
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'large-layer', users: ['alice'] });
    server = anvil.server;
    authorization = `Basic ${Buffer.from(`alice:${anvil.tokens.alice}`).toString('base64')}`;
  }, 120_000);

  afterAll(() => anvil?.stop());

  it('keeps the server within 50 MiB of its warmed-up peak, pushed monolithic, chunked and streamed', async () => {
    // Every path once with a small layer first, so what is measured is what the size adds.
    await expectPulled('alice/warm', await pushMonolithic('alice/warm', 1, 8), 8);
    await expectPulled('alice/warm', await pushChunked('alice/warm', 2, 8, 2), 8);
    await expectPulled('alice/warm', await pushStreamed('alice/warm', 3, 8), 8);
    const pid = server.child.pid!;
    const warm = peakMemory(pid);

    const monolithic = await pushMonolithic('alice/big', 11, LAYER_MIB);
    expect(peakMemory(pid) - warm).toBeLessThan(GROWTH_LIMIT);
    const chunked = await pushChunked('alice/big', 12, LAYER_MIB, 4);
    expect(peakMemory(pid) - warm).toBeLessThan(GROWTH_LIMIT);
    const streamed = await pushStreamed('alice/big', 13, LAYER_MIB);
    expect(peakMemory(pid) - warm).toBeLessThan(GROWTH_LIMIT);
    await expectPulled('alice/big', monolithic, LAYER_MIB);
    await expectPulled('alice/big', chunked, LAYER_MIB);
    await expectPulled('alice/big', streamed, LAYER_MIB);
    expect(peakMemory(pid) - warm).toBeLessThan(GROWTH_LIMIT);
  }, 600_000);
});
