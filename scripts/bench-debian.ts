// The Debian registry rows of `npm run bench`: BENCH_DEBIAN_PACKAGES (1,000) .deb packages uploaded to one
// distribution of a running Anvil, then the index rebuild measured end to end — one more upload until its
// distribution's Packages file lists it (the background job rebuilds and re-signs every file of the distribution:
// Packages and Packages.gz, Release, InRelease, Release.gpg), median of three, goal < 2 s — and GETs of the
// distribution's Packages.gz per second (autocannon).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

const PACKAGES = Number(process.env.BENCH_DEBIAN_PACKAGES ?? 1000);
const CONCURRENCY = 8;
const REBUILD_GOAL_MS = 2000;
const RPS_GOAL = 1000;
const DIST = 'bench';

export interface DebianBenchRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

export type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, text] of Object.entries(files)) pack.entry({ name, mode: 0o644 }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

function ar(members: Array<[string, Buffer]>): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n')];
  for (const [name, data] of members) {
    const header = `${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'100644'.padEnd(8)}${String(data.length).padEnd(10)}\`\n`;
    parts.push(Buffer.from(header, 'latin1'), data, data.length % 2 ? Buffer.from('\n') : Buffer.alloc(0));
  }
  return Buffer.concat(parts);
}

/** A small .deb as dpkg-deb lays it out (debian-binary, control.tar.gz, data.tar.gz). */
async function deb(name: string, version: string): Promise<Buffer> {
  const control = [
    `Package: ${name}`,
    `Version: ${version}`,
    'Architecture: amd64',
    'Maintainer: Anvil Bench <bench@example.com>',
    'Depends: libc6 (>= 2.36)',
    `Description: ${name} for the bench`,
    ' A package made up by the bench, with a description of two lines.',
  ].join('\n');
  return ar([
    ['debian-binary', Buffer.from('2.0\n')],
    ['control.tar.gz', await tarGz({ './control': `${control}\n` })],
    ['data.tar.gz', await tarGz({ [`./usr/share/doc/${name}/README`]: `${name} ${version}\n` })],
  ]);
}

async function upload(registry: string, auth: Record<string, string>, body: Buffer): Promise<void> {
  const res = await fetch(`${registry}/pool/${DIST}/main/upload`, { method: 'PUT', headers: auth, body });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`a .deb upload answered ${res.status}`);
}

/** Waits until the distribution's Packages lists the package; the milliseconds it took. */
async function listed(registry: string, auth: Record<string, string>, name: string): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${registry}/dists/${DIST}/main/binary-amd64/Packages`, { headers: auth });
    const text = res.status === 200 ? await res.text() : (await res.arrayBuffer(), '');
    if (text.includes(`Package: ${name}\n`)) return performance.now() - started;
    if (Date.now() > deadline) throw new Error(`${name} was not indexed within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function benchDebian(options: {
  base: string;
  token: string;
  owner: string;
  measure: Measure;
}): Promise<DebianBenchRow[]> {
  const registry = `${options.base}/api/packages/${options.owner}/debian`;
  const auth = { Authorization: `token ${options.token}` };
  const run = createHash('sha256').update(String(Date.now())).digest('hex').slice(0, 6);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PACKAGES) {
        const index = next++;
        await upload(registry, auth, await deb(`bench-${run}-${index}`, `1.${index}-1`));
      }
    }),
  );
  const uploadSeconds = (performance.now() - started) / 1000;
  await listed(registry, auth, `bench-${run}-${PACKAGES - 1}`);
  console.log(`\n${PACKAGES} .deb uploads to one distribution: ${uploadSeconds.toFixed(1)} s`);

  const rebuilds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const name = `bench-${run}-extra${i}`;
    const sent = performance.now();
    await upload(registry, auth, await deb(name, '1.0-1'));
    await listed(registry, auth, name);
    rebuilds.push(performance.now() - sent);
  }
  const rebuildMs = rebuilds.sort((a, b) => a - b)[1];
  const packagesGz = `${registry}/dists/${DIST}/main/binary-amd64/Packages.gz`;
  const size = (await (await fetch(packagesGz, { headers: auth })).arrayBuffer()).byteLength;
  const get = await options.measure(packagesGz, auth);
  console.log(
    `index rebuild (upload until Packages lists it, ${PACKAGES + 3} packages): median ${rebuildMs.toFixed(0)} ms of ${rebuilds.map((ms) => ms.toFixed(0)).join(', ')}`,
  );
  console.log(`GET Packages.gz (${(size / 1024).toFixed(0)} KiB): ${get.rps.toFixed(0)} req/s`);
  return [
    {
      name: `Debian index rebuild, ${PACKAGES} packages in one distribution (upload until listed)`,
      measured: `${rebuildMs.toFixed(0)} ms`,
      goal: `< ${REBUILD_GOAL_MS} ms`,
      met: rebuildMs < REBUILD_GOAL_MS,
    },
    {
      name: `GET Debian Packages.gz (${PACKAGES} packages, ${(size / 1024).toFixed(0)} KiB)`,
      measured: `${get.rps.toFixed(0)} req/s${get.non2xx > 0 ? `, ${get.non2xx} non-2xx` : ''}`,
      goal: `≥ ${RPS_GOAL} req/s`,
      met: get.rps >= RPS_GOAL && get.non2xx === 0,
    },
  ];
}
