// The physical ceiling beside a registry's index-document row of `npm run bench`: a bare node http server, in a
// process of its own, answering every request with the bytes and headers Anvil answered one request with (same
// compression, same Content-Length), from memory, hit by the same load generator with the same settings. What Anvil
// serves against it says how much of the cost is Anvil's and how much is moving the bytes.
// Run as a script, it is that server: BENCH_SAME_BYTES names a file holding the status, the headers and the body.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** The headers every server sets for itself, left to the bare one. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** One answer as it came over the wire: the body not decompressed. */
function fetchRaw(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: kept(res.headers), body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function kept(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !OWN_HEADERS.has(name)) out[name] = value;
  return out;
}

function encode(answer: Answer): Buffer {
  const head = Buffer.from(JSON.stringify({ status: answer.status, headers: answer.headers }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, answer.body]);
}

function decode(file: Buffer): Answer {
  const length = file.readUInt32BE(0);
  const head = JSON.parse(file.subarray(4, 4 + length).toString()) as Omit<Answer, 'body'>;
  return { ...head, body: file.subarray(4 + length) };
}

/** The bare server on a free port, serving `answer`: its address and a stop. */
async function startBare(answer: Answer): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-bytes-'));
  const file = path.join(dir, 'answer');
  fs.writeFileSync(file, encode(answer));
  const child = spawn(process.execPath, ['--import', 'tsx', __filename], {
    env: { ...process.env, BENCH_SAME_BYTES: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    child.stdout.once('data', (data: Buffer) => resolve(Number(/listening (\d+)/.exec(data.toString())?.[1])));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    stop: async () => {
      child.removeAllListeners('exit');
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CPU time (user and system) a process has used so far, in seconds, or NaN where /proc is not there. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100;

/** A server's rate and the CPU it spent per request (its whole CPU over the run, shared by the requests). */
export interface ServerRun {
  rps: number;
  cpuMicros: number;
}

export type Rate = (url: string, headers: Record<string, string>) => Promise<number>;

/** Requests one after another, so that the measured run does not include the server's warm-up (JIT, caches). */
async function warmUp(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < WARM_UP_REQUESTS; i++) await fetchRaw(url, headers);
}
const WARM_UP_REQUESTS = 300;

/** `rate` of `url`, with the CPU the server `pid` spent per request meanwhile: robust to the machine's load. */
async function run(pid: number, url: string, headers: Record<string, string>, rate: Rate): Promise<ServerRun> {
  await warmUp(url, headers);
  const [cpu, started] = [cpuSeconds(pid), performance.now()];
  const rps = await rate(url, headers);
  const seconds = (performance.now() - started) / 1000;
  return { rps, cpuMicros: (1e6 * (cpuSeconds(pid) - cpu)) / (rps * seconds) };
}

/**
 * Anvil's run at `url` (its process `anvilPid`), then the bare server's on what Anvil answered to `headers`, with
 * the same `rate`; and the size of the answer's body.
 */
export async function againstBareServer(
  url: string,
  headers: Record<string, string>,
  rate: Rate,
  anvilPid: number,
): Promise<{ anvil: ServerRun; bare: ServerRun; bytes: number }> {
  const anvil = await run(anvilPid, url, headers, rate);
  const answer = await fetchRaw(url, headers);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  const server = await startBare(answer);
  try {
    return { anvil, bare: await run(server.pid, server.url, headers, rate), bytes: answer.body.length };
  } finally {
    await server.stop();
  }
}

/** The row beside a flatness row: at 10 and at 1,000 versions, the bare server's rate and CPU against Anvil's. */
export function sameBytesRow(
  label: string,
  anvil: readonly [ServerRun, ServerRun],
  bare: readonly [ServerRun, ServerRun],
  bytes: number,
): { name: string; measured: string; goal: string; met: boolean } {
  const rates = (runs: readonly [ServerRun, ServerRun]) =>
    `${runs[0].rps.toFixed(0)} vs ${runs[1].rps.toFixed(0)} req/s (ratio ${(runs[0].rps / runs[1].rps).toFixed(2)}), ` +
    `CPU ${runs[0].cpuMicros.toFixed(0)} vs ${runs[1].cpuMicros.toFixed(0)} µs/request`;
  const measured =
    `bare ${rates(bare)}; Anvil ${rates(anvil)}, ${((100 * anvil[1].rps) / bare[1].rps).toFixed(0)} % of bare's ` +
    `rate at 1,000 (${(bytes / 1024).toFixed(0)} KiB)`;
  console.log(`${label}, against a bare server answering the same bytes: ${measured}`);
  return { name: `${label}: bare server, same bytes, 10 vs 1,000 versions`, measured, goal: 'reported', met: true };
}

if (process.env.BENCH_SAME_BYTES && require.main === module) {
  const answer = decode(fs.readFileSync(process.env.BENCH_SAME_BYTES));
  const server = http.createServer((req, res) => {
    res.writeHead(answer.status, answer.headers);
    if (req.method === 'HEAD') res.end();
    else res.end(answer.body);
  });
  server.keepAliveTimeout = 10_000;
  // An exit, not death by the signal: node writes a --cpu-prof profile on exit only.
  process.once('SIGTERM', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
  });
}
