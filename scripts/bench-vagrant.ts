// The Vagrant rows of `npm run bench`: a 1 MiB box uploaded as Forgejo documents it and added by the real vagrant
// from its metadata URL (wall time of each), and the requests/s of a box's metadata document with 10 and with 1,000
// versions seeded directly in the database, read as vagrant reads it (no compression asked; goal ≥ 500 req/s at
// 1,000, and the two within 1.5× of each other), each beside a bare server answering the same bytes
// (bench-same-bytes.ts).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { autocannon, seedPackageVersions } from './bench-cargo.ts';
import { againstBareServer, type ServerRun, sameBytesRow } from './bench-same-bytes.ts';

const RPS_GOAL = 500;
const FLAT_GOAL = 1.5;
const UPLOAD_GOAL_S = 2;
const ADD_GOAL_S = 20;

export interface VagrantGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

async function box(): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: 'metadata.json' }, JSON.stringify({ provider: 'virtualbox' }));
  pack.entry({ name: 'box.ovf' }, '<Envelope/>');
  pack.entry({ name: 'box-disk001.vmdk' }, randomBytes(1024 * 1024));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

function vagrantAdd(url: string, home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, VAGRANT_HOME: home, VAGRANT_CHECKPOINT_DISABLE: '1' };
    execFile('vagrant', ['box', 'add', url], { env }, (error, _stdout, stderr) =>
      error ? reject(new Error(`vagrant box add: ${stderr || error.message}`)) : resolve(),
    );
  });
}

export async function benchVagrant(anvil: {
  base: string;
  token: string;
  owner: string;
  dbFile: string;
  /** The server's process, for its CPU per request. */
  pid: number;
}): Promise<VagrantGoalRow[]> {
  const rows: VagrantGoalRow[] = [];
  const registry = `${anvil.base}/api/packages/${anvil.owner}/vagrant`;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-vagrant-'));
  try {
    const name = `bench-box-${randomBytes(3).toString('hex')}`;
    const body = await box();
    const started = performance.now();
    const res = await fetch(`${registry}/${name}/1.0.0/virtualbox.box`, {
      method: 'PUT',
      headers: { Authorization: `token ${anvil.token}` },
      body,
    });
    const upload = (performance.now() - started) / 1000;
    if (res.status !== 201) throw new Error(`the upload answered ${res.status}`);
    const add = await (async () => {
      const from = performance.now();
      await vagrantAdd(`${registry}/${name}`, home);
      return (performance.now() - from) / 1000;
    })();
    console.log(`vagrant: 1 MiB box upload ${upload.toFixed(2)} s; vagrant box add ${add.toFixed(2)} s`);
    rows.push({
      name: 'vagrant box upload (1 MiB, wall time)',
      measured: `${upload.toFixed(2)} s`,
      goal: `< ${UPLOAD_GOAL_S} s`,
      met: upload < UPLOAD_GOAL_S,
    });
    rows.push({
      name: 'vagrant box add from the metadata URL (wall time, vagrant start included)',
      measured: `${add.toFixed(2)} s`,
      goal: `< ${ADD_GOAL_S} s`,
      met: add < ADD_GOAL_S,
    });
  } catch (error) {
    console.log(`vagrant upload/add failed: ${(error as Error).message}`);
    rows.push({ name: 'vagrant box upload + add', measured: 'failed', goal: 'runs', met: false });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }

  const rps: Record<number, number> = {};
  const runs: Record<number, { anvil: ServerRun; bare: ServerRun; bytes: number }> = {};
  const metadata = JSON.stringify({ description: 'bench box' });
  for (const versions of [10, 1000]) {
    const name = `bench-meta-${versions}-${randomBytes(2).toString('hex')}`;
    seedPackageVersions(anvil.dbFile, anvil.owner, 'vagrant', name, versions, metadata, () => 'virtualbox.box');
    const url = `${registry}/${name}`;
    const check = await fetch(url);
    const doc = (await check.json()) as { versions?: unknown[] };
    if (check.status !== 200 || doc.versions?.length !== versions)
      console.log(`  (metadata of ${name}: ${check.status}, ${doc.versions?.length} versions)`);
    runs[versions] = await againstBareServer(url, { Accept: 'application/json' }, autocannon, anvil.pid);
    rps[versions] = runs[versions].anvil.rps;
  }
  const ratio = rps[10] / rps[1000];
  console.log(
    `vagrant box metadata GET: ${rps[10].toFixed(0)} req/s at 10 versions, ${rps[1000].toFixed(0)} at 1,000 ` +
      `(ratio ${ratio.toFixed(2)})`,
  );
  rows.push({
    name: 'vagrant box metadata GET, 1,000 versions',
    measured: `${rps[1000].toFixed(0)} req/s`,
    goal: `≥ ${RPS_GOAL} req/s`,
    met: rps[1000] >= RPS_GOAL,
  });
  rows.push({
    name: 'vagrant box metadata GET, 10 vs 1,000 versions',
    measured: `${rps[10].toFixed(0)} vs ${rps[1000].toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`,
    goal: `within ${FLAT_GOAL}×`,
    met: ratio <= FLAT_GOAL,
  });
  const [small, large] = [runs[10], runs[1000]];
  rows.push(
    sameBytesRow('vagrant box metadata GET', [small.anvil, large.anvil], [small.bare, large.bare], large.bytes),
  );
  return rows;
}
