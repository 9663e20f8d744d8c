// The git rows of `npm run bench`: push and clone of a repository of BENCH_GIT_COMMITS commits and about
// BENCH_GIT_MIB MiB (incompressible files, made with git fast-import), through Anvil and through git's own
// `git http-backend` behind a minimal CGI server on loopback, the reference implementation. Reports each
// transfer's MiB/s and Anvil's time against the reference's (goal: within 1.1×), and, given the server's pid, its
// peak RSS growth during each transfer (goal < 30 MiB: packs stream through, never held).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { rssMiB, sampleRss } from './bench-rss.ts';

const COMMITS = Number(process.env.BENCH_GIT_COMMITS ?? 5000);
const MIB = Number(process.env.BENCH_GIT_MIB ?? 100);
/** Anvil's throughput as a fraction of git http-backend's: its time within 1.1× of the reference's. */
const GOAL = 1 / 1.1;
const RSS_GOAL_MIB = 30;
/** Each side's best of these many runs, taken in turns: a clone takes about 2 s, a push about 2 s and a repository. */
const PUSH_ROUNDS = 3;
const CLONE_ROUNDS = 5;
const GIT_ENV = {
  PATH: process.env.PATH,
  HOME: os.tmpdir(),
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  LANG: 'C',
};

function git(args: string[], cwd?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...GIT_ENV, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve()),
    );
  });
}

/** A bare repository of COMMITS commits, each adding one incompressible file, written by git fast-import. */
async function makeSourceRepository(dir: string): Promise<void> {
  await git(['init', '--bare', '-q', '-b', 'main', dir]);
  const importer = spawn('git', ['fast-import', '--quiet'], {
    cwd: dir,
    env: GIT_ENV,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const fileBytes = Math.floor((MIB * 1024 * 1024) / COMMITS);
  const write = (chunk: string | Buffer) =>
    importer.stdin.write(chunk)
      ? Promise.resolve()
      : new Promise<void>((resolve) => importer.stdin.once('drain', () => resolve()));
  const when = 1_700_000_000;
  for (let i = 1; i <= COMMITS; i++) {
    const message = `commit ${i}\n`;
    const content = randomBytes(fileBytes);
    await write(
      `commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${when + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}`,
    );
    if (i > 1) await write(`from :${i - 1}\n`);
    await write(`M 644 inline files/${String(i).padStart(5, '0')}.bin\ndata ${content.length}\n`);
    await write(content);
    await write('\n');
  }
  importer.stdin.end();
  await new Promise<void>((resolve, reject) =>
    importer.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`)))),
  );
  await git(['gc', '-q', '--aggressive', '--prune=now'], dir).catch(() => git(['repack', '-adq'], dir));
}

/** git http-backend behind a CGI server: the request's method, path, query and headers in, its output back. */
function startHttpBackend(projectRoot: string): Promise<{ base: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const backend = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_HTTP_MAX_REQUEST_BUFFER: '1000M',
        REMOTE_USER: 'bench',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(backend.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    backend.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        if (!res.write(chunk)) {
          backend.stdout.pause();
          res.once('drain', () => backend.stdout.resume());
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    backend.stdout.on('end', () => res.end());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() }),
    );
  });
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

function sizeMiB(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes / (1024 * 1024);
}

export interface AnvilGitTarget {
  /** The base URL of a running Anvil. */
  base: string;
  token: string;
  owner: string;
  /** The server's process id, to sample its RSS during transfers (Linux). */
  pid?: number;
}

export const GIT_GOAL = GOAL;

/** Runs `work` and answers its seconds and the growth of the server's RSS peak over its RSS before (NaN without pid). */
async function timedWithRss(
  pid: number | undefined,
  work: () => Promise<void>,
): Promise<{ seconds: number; growth: number }> {
  if (pid === undefined) return { seconds: await timed(work), growth: NaN };
  const before = rssMiB(pid);
  const rss = sampleRss(pid, 20);
  let seconds: number;
  try {
    seconds = await timed(work);
  } finally {
    rss.stop();
  }
  return { seconds, growth: rss.peak() - before };
}

export async function benchGit(
  anvil: AnvilGitTarget,
): Promise<Array<{ name: string; ratio: number; rssGrowthMiB: number }>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-git-'));
  const backendRoot = path.join(work, 'backend');
  fs.mkdirSync(backendRoot);
  const backend = await startHttpBackend(backendRoot);
  try {
    const source = path.join(work, 'source.git');
    console.log(`\nmaking a repository of ${COMMITS} commits (~${MIB} MiB) with git fast-import…`);
    await makeSourceRepository(source);
    const packed = sizeMiB(path.join(source, 'objects'));

    // Push: into an empty repository on each side, taking turns, best of PUSH_ROUNDS.
    const auth = ['-c', `http.extraHeader=Authorization: token ${anvil.token}`];
    const pushArgs = (url: string) => ['push', '-q', url, 'main:main'];
    const pushReferenceRuns: number[] = [];
    const pushAnvilRuns: number[] = [];
    let pushGrowth = 0;
    for (let round = 1; round <= PUSH_ROUNDS; round++) {
      const referenceDir = path.join(backendRoot, `bench-${round}.git`);
      await git(['init', '--bare', '-q', '-b', 'main', referenceDir]);
      await git(['config', 'http.receivepack', 'true'], referenceDir);
      const create = await fetch(`${anvil.base}api/v1/user/repos`, {
        method: 'POST',
        headers: { Authorization: `token ${anvil.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `git-bench-${round}` }),
      });
      if (create.status !== 201) throw new Error(`creating the repository answered ${create.status}`);
      pushReferenceRuns.push(await timed(() => git(pushArgs(`${backend.base}bench-${round}.git`), source)));
      const pushed = await timedWithRss(anvil.pid, () =>
        git([...auth, ...pushArgs(`${anvil.base}${anvil.owner}/git-bench-${round}.git`)], source),
      );
      pushAnvilRuns.push(pushed.seconds);
      pushGrowth = Math.max(pushGrowth, pushed.growth);
    }
    const pushReference = Math.min(...pushReferenceRuns);
    const pushAnvil = Math.min(...pushAnvilRuns);
    const anvilUrl = `${anvil.base}${anvil.owner}/git-bench-1.git`;

    // Clone: the same repository from each side, taking turns (this machine's speed drifts over minutes), best of
    // CLONE_ROUNDS.
    let cloneGrowth = 0;
    const cloneOnce = async (args: string[], url: string, pid?: number) => {
      const target = fs.mkdtempSync(path.join(work, 'clone-'));
      const cloned = await timedWithRss(pid, () => git([...args, 'clone', '-q', '--bare', url, target]));
      fs.rmSync(target, { recursive: true, force: true });
      if (pid !== undefined) cloneGrowth = Math.max(cloneGrowth, cloned.growth);
      return cloned.seconds;
    };
    const cloneReferenceRuns: number[] = [];
    const cloneAnvilRuns: number[] = [];
    for (let round = 1; round <= CLONE_ROUNDS; round++) {
      cloneReferenceRuns.push(await cloneOnce([], `${backend.base}bench-1.git`));
      cloneAnvilRuns.push(await cloneOnce(auth, anvilUrl, anvil.pid));
    }
    const cloneReference = Math.min(...cloneReferenceRuns);
    const cloneAnvil = Math.min(...cloneAnvilRuns);

    const row = (name: string, reference: number, anvilSeconds: number, growth: number) => {
      const times = anvilSeconds / reference;
      const met = times <= 1 / GOAL && !(growth >= RSS_GOAL_MIB);
      console.log(
        `| ${name} | ${(packed / anvilSeconds).toFixed(0)} | ${(packed / reference).toFixed(0)} | ${times.toFixed(2)}× | ${growth.toFixed(1)} | time ≤ 1.1×, RSS growth < ${RSS_GOAL_MIB} MiB: ${met ? 'met' : 'below'} |`,
      );
    };
    console.log(
      `\n| git over HTTP, ${COMMITS} commits, ${packed.toFixed(0)} MiB packed (load average ${os.loadavg()[0].toFixed(1)}) | Anvil MiB/s | git http-backend MiB/s | Anvil's time | server RSS growth, MiB | goal |`,
    );
    console.log('|---|---|---|---|---|---|');
    row(`push (git push into an empty repository, best of ${PUSH_ROUNDS})`, pushReference, pushAnvil, pushGrowth);
    row(`clone (git clone --bare, best of ${CLONE_ROUNDS})`, cloneReference, cloneAnvil, cloneGrowth);
    return [
      {
        name: `git push, ${COMMITS} commits, ${packed.toFixed(0)} MiB`,
        ratio: pushReference / pushAnvil,
        rssGrowthMiB: pushGrowth,
      },
      {
        name: `git clone, ${COMMITS} commits, ${packed.toFixed(0)} MiB`,
        ratio: cloneReference / cloneAnvil,
        rssGrowthMiB: cloneGrowth,
      },
    ];
  } finally {
    backend.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
