// The Conda rows of `npm run bench`. No conda client runs here, so the rows follow what `conda install` does: the
// publish (PUT of a small .tar.bz2) and the install (the subdir's repodata.json, then the file) as one wall time;
// and repodata.json requests/s of a channel with 10 and with 1,000 versions, the versions seeded straight into the
// database (goal ≥ 500 req/s at 1,000, and flat: 10 versions at most 1.5× as fast as 1,000), each beside a bare
// server answering the same bytes (bench-same-bytes.ts).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import tar from 'tar-stream';
import type { Measure } from './bench-container.ts';
import { againstBareServer, type ServerRun, sameBytesRow } from './bench-same-bytes.ts';

const RPS_GOAL = 500;
const FLAT_GOAL = 1.5;
const SUBDIR = 'linux-64';

export interface CondaGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

async function smallPackage(name: string, version: string): Promise<Buffer> {
  const pack = tar.pack();
  const index = { name, version, build: 'h0_0', build_number: 0, subdir: SUBDIR, depends: ['libc'], license: 'MIT' };
  pack.entry({ name: 'info/index.json' }, JSON.stringify(index));
  pack.entry({ name: `lib/${name}.bin` }, randomBytes(16 * 1024));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const compressed = spawnSync('bzip2', ['-c'], { input: Buffer.concat(chunks) });
  if (compressed.status !== 0) throw new Error('bzip2 is missing');
  return compressed.stdout;
}

/** `versions` versions of one package in the channel, written as the registry writes an upload's rows. */
function seedChannel(dbFile: string, ownerId: number, channel: string, versions: number): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  const now = new Date().toISOString().replace('Z', '+00:00');
  db.transaction(() => {
    const name = `${channel}/seeded`;
    const packageId = Number(
      db
        .prepare(`INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, 'conda', ?, ?)`)
        .run(ownerId, name, name).lastInsertRowid,
    );
    const version = db.prepare(
      `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt") VALUES (?, ?, ?, ?, ?)`,
    );
    const blob = db.prepare(
      `INSERT INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const file = db.prepare(
      `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "compositeKey", "isLead", "createdAt") VALUES (?, ?, ?, ?, ?, 1, ?)`,
    );
    const property = db.prepare(
      `INSERT INTO "PackageProperty" ("refType", "refId", "name", "value") VALUES (1, ?, ?, ?)`,
    );
    for (let i = 0; i < versions; i++) {
      const number = `1.${i}`;
      const versionId = Number(
        version.run(packageId, number, number, JSON.stringify({ license: 'MIT', summary: 'seeded' }), now)
          .lastInsertRowid,
      );
      const hex = (bytes: number) => randomBytes(bytes).toString('hex');
      const blobId = Number(blob.run(4096, hex(16), hex(20), hex(32), hex(64), now).lastInsertRowid);
      const fileName = `seeded-${number}-h0_0.tar.bz2`;
      const fileId = Number(file.run(versionId, blobId, fileName, fileName, SUBDIR, now).lastInsertRowid);
      const metadata = { is_conda: false, build: 'h0_0', build_number: 0, depends: ['libc >=2.17', 'zlib'] };
      property.run(fileId, 'conda.subdir', SUBDIR);
      property.run(fileId, 'conda.metadata', JSON.stringify({ ...metadata, timestamp: 1700000000000 + i }));
    }
  })();
  db.close();
}

export async function benchConda(options: {
  base: string;
  owner: string;
  token: string;
  dbFile: string;
  measure: Measure;
  /** The server's process, for its CPU per request. */
  pid: number;
}): Promise<CondaGoalRow[]> {
  const { base, owner, token, dbFile, measure } = options;
  const headers = { Authorization: `token ${token}` };
  const registry = `${base}/api/packages/${owner}/conda`;
  const rows: CondaGoalRow[] = [];

  const name = `bench-${randomBytes(3).toString('hex')}`;
  const bytes = await smallPackage(name, '1.0');
  const started = performance.now();
  const put = await fetch(`${registry}/bench/${name}.tar.bz2`, { method: 'PUT', headers, body: bytes });
  const repodata = await fetch(`${registry}/bench/${SUBDIR}/repodata.json`, { headers });
  await repodata.arrayBuffer();
  const download = await fetch(`${registry}/bench/${SUBDIR}/${name}-1.0-h0_0.tar.bz2`, { headers });
  const downloaded = Buffer.from(await download.arrayBuffer());
  const wallMs = performance.now() - started;
  const worked = put.status === 201 && repodata.status === 200 && downloaded.equals(bytes);
  console.log(`conda publish + install of a ${bytes.length}-byte package: ${wallMs.toFixed(0)} ms`);
  rows.push({
    name: 'conda: publish + install (PUT, repodata.json, download) of a small .tar.bz2',
    measured: worked ? `${wallMs.toFixed(0)} ms` : `failed (${put.status}, ${repodata.status}, ${download.status})`,
    goal: 'works',
    met: worked,
  });

  const db = new BetterSqlite3(dbFile, { readonly: true });
  const ownerRow = db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner.toLowerCase()) as {
    id: number;
  };
  db.close();
  // The load of a shared machine drifts: the server's own cheapest answer, measured beside, says how much.
  const yardstick = await measure(`${base}/api/v1/version`, headers);
  console.log(`GET /api/v1/version beside it: ${yardstick.rps.toFixed(0)} req/s`);
  const rates: Record<number, number> = {};
  const runs: Record<number, { anvil: ServerRun; bare: ServerRun; bytes: number }> = {};
  const rate = async (url: string, headers: Record<string, string>) => {
    const run = await measure(url, headers);
    if (run.non2xx > 0) console.log(`  (${run.non2xx} answers from ${url} not 2xx)`);
    return run.rps;
  };
  for (const versions of [10, 1000]) {
    const channel = `seeded${versions}-${randomBytes(2).toString('hex')}`;
    seedChannel(dbFile, ownerRow.id, channel, versions);
    const url = `${registry}/${channel}/${SUBDIR}/repodata.json`;
    const sample = await fetch(url, { headers });
    const text = await sample.text();
    const listed = sample.status === 200 ? Object.keys((JSON.parse(text) as { packages: object }).packages).length : 0;
    if (listed !== versions) throw new Error(`${url} answers ${sample.status} ${text.slice(0, 200)}`);
    // conda asks for the index compressed (requests' default Accept-Encoding).
    runs[versions] = await againstBareServer(
      url,
      { ...headers, 'Accept-Encoding': 'gzip, deflate' },
      rate,
      options.pid,
    );
    rates[versions] = runs[versions].anvil.rps;
    console.log(`conda repodata.json, ${versions} versions: ${rates[versions].toFixed(0)} req/s`);
  }
  rows.push({
    name: 'conda: repodata.json of a channel with 1,000 versions (req/s)',
    measured: `${rates[1000]!.toFixed(0)} req/s`,
    goal: `≥ ${RPS_GOAL} req/s`,
    met: rates[1000]! >= RPS_GOAL,
  });
  const ratio = rates[10]! / rates[1000]!;
  rows.push({
    name: 'conda: repodata.json req/s, 10 versions against 1,000',
    measured: `${rates[10]!.toFixed(0)} vs ${rates[1000]!.toFixed(0)} req/s (×${ratio.toFixed(2)})`,
    goal: `≤ ×${FLAT_GOAL}`,
    met: ratio <= FLAT_GOAL,
  });
  const [small, large] = [runs[10]!, runs[1000]!];
  rows.push(sameBytesRow('conda repodata.json', [small.anvil, large.anvil], [small.bare, large.bare], large.bytes));
  return rows;
}
