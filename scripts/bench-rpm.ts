// The RPM registry rows of `npm run bench`: 1,000 packages uploaded over HTTP into one group of the running bench
// server (each signed on upload), then the time one rebuild of that group's repodata takes (the index job's work:
// the query, primary/filelists/other, repomd.xml signed, the set swapped in) — goal < 2 s, median of 3, run here
// through a second context on the server's own database — and GETs per second of the group's repomd.xml and
// primary.xml.gz. Skipped, with a line saying why, when rpmbuild is missing.
import { spawnSync } from 'node:child_process';
import { loadSettings } from '../src/config/settings.ts';
import { bootstrap } from '../src/app/bootstrap.ts';
import { createLogger } from '../src/infra/observability/logger.ts';
import { buildRpm } from '../tests/helpers/rpm.ts';

const PACKAGES = Number(process.env.BENCH_RPM_PACKAGES ?? 1000);
const REBUILD_GOAL_MS = 2000;
const GROUP = 'bench/1';
const TEMPLATE = 'bench-rpm-00000';

export interface RpmBenchRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

export type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

export interface RpmBenchInput {
  /** The running server's root, without a trailing slash. */
  base: string;
  token: string;
  owner: string;
  /** The running server's ANVIL_DATA_DIR (its SQLite database and at-rest key). */
  dataDir: string;
  measure: Measure;
}

/** Package `i`: the template with its name (in every header tag that holds it) changed in place, length kept. */
function variant(template: Buffer, i: number): Buffer {
  const bytes = Buffer.from(template);
  const from = Buffer.from(TEMPLATE);
  const to = Buffer.from(`bench-rpm-${String(i).padStart(5, '0')}`);
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1)) to.copy(bytes, at);
  return bytes;
}

async function uploadAll(input: RpmBenchInput, template: Buffer): Promise<number> {
  const url = `${input.base}/api/packages/${input.owner}/rpm/${GROUP}/upload`;
  const headers = { Authorization: `token ${input.token}` };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < PACKAGES) {
      const index = next++;
      const res = await fetch(url, { method: 'PUT', headers, body: variant(template, index) }).catch((error: Error) => {
        // undici says "fetch failed"; the cause (ECONNRESET…) is what tells why.
        throw new Error(`upload ${index} failed: ${String((error.cause as Error | undefined)?.message ?? error)}`);
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return PACKAGES / ((performance.now() - started) / 1000);
}

async function rebuildTimes(input: RpmBenchInput): Promise<number[]> {
  const settings = loadSettings({ ANVIL_DATA_DIR: input.dataDir, ANVIL__log__LEVEL: 'silent' });
  const context = await bootstrap(settings, createLogger('silent'));
  try {
    const owner = await context.repos.users.byLowerName(input.owner.toLowerCase());
    if (!owner) throw new Error(`no user ${input.owner}`);
    const key = { ownerId: owner.id, type: 'rpm', scope: GROUP };
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      await context.services.packageIndexes.rebuild(key);
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  } finally {
    await context.jobQueue.close();
    await context.db.close();
  }
}

export async function benchRpm(input: RpmBenchInput): Promise<RpmBenchRow[]> {
  if (spawnSync('sh', ['-c', 'command -v rpmbuild'], { stdio: 'ignore' }).status !== 0) {
    console.log('\nRPM registry rows skipped: rpmbuild is missing (apt-get install rpm)');
    return [];
  }
  const files = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`/usr/share/${TEMPLATE}/file-${i}.txt`, `file ${i}\n`]),
  );
  const template = buildRpm({ name: TEMPLATE, version: '1.0.0', requires: ['bash >= 4', 'coreutils'], files });
  const uploadsPerSecond = await uploadAll(input, template.bytes);
  const times = await rebuildTimes(input);
  const median = times[1]!;
  const repo = `${input.base}/api/packages/${input.owner}/rpm/${GROUP}/repodata`;
  const headers = { Authorization: `token ${input.token}` };
  const primary = await fetch(`${repo}/primary.xml.gz`, { headers });
  const primaryBytes = (await primary.arrayBuffer()).byteLength;
  const repomd = await input.measure(`${repo}/repomd.xml`, headers);
  const primaryGets = await input.measure(`${repo}/primary.xml.gz`, headers);
  console.log(`
| RPM registry, ${PACKAGES} packages in one group | measured | goal |
|---|---|---|
| uploads over HTTP (4 at a time, each signed) | ${uploadsPerSecond.toFixed(0)} packages/s | |
| repodata rebuild (query, 3 lists, repomd.xml signed, swap) | median ${median.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')}) | < ${REBUILD_GOAL_MS} ms: ${median < REBUILD_GOAL_MS ? 'met' : 'missed'} |
| GET repomd.xml | ${repomd.rps.toFixed(0)} req/s${repomd.non2xx ? ` (${repomd.non2xx} non-2xx)` : ''} | |
| GET primary.xml.gz (${(primaryBytes / 1024).toFixed(0)} KiB) | ${primaryGets.rps.toFixed(0)} req/s${primaryGets.non2xx ? ` (${primaryGets.non2xx} non-2xx)` : ''} | |`);
  return [
    {
      name: `RPM repodata rebuild, ${PACKAGES} packages in one group`,
      measured: `median ${median.toFixed(0)} ms`,
      goal: `< ${REBUILD_GOAL_MS} ms`,
      met: median < REBUILD_GOAL_MS,
    },
    {
      name: `RPM GET primary.xml.gz (${PACKAGES} packages)`,
      measured: `${primaryGets.rps.toFixed(0)} req/s; repomd.xml ${repomd.rps.toFixed(0)} req/s`,
      goal: 'measured',
      met: primaryGets.non2xx === 0 && repomd.non2xx === 0,
    },
  ];
}
