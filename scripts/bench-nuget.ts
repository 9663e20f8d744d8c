// The NuGet, Helm and pub rows of `npm run bench` (no dotnet, helm or dart runs here, so each client's request
// sequence is made over HTTP as the client makes it): the wall time of publishing a small package and then
// installing it (index documents, then the file), and the requests/s of each registry's index document with 10
// and with 1,000 versions seeded directly in the SQLite database — goal ≥ 500 req/s, and the 1,000-version rate
// within 1.5× of the 10-version one.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import tar from 'tar-stream';
import yazl from 'yazl';

const GOAL_RPS = 500;
const FLAT_GOAL = 1.5;
const SIZES = [10, 1000] as const;

export interface RegistryGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

interface Options {
  base: string;
  token: string;
  dbFile: string;
  /** Owners to seed into: one per (type, size), public users the token may read. */
  owners: string[];
  measure: Measure;
}

function zip(entries: Record<string, string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) archive.addBuffer(Buffer.from(text), name);
  archive.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, text] of Object.entries(files)) pack.entry({ name }, Buffer.from(text));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

async function ok(response: Promise<Response>, what: string): Promise<Response> {
  const res = await response;
  if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return res;
}

function form(field: string, bytes: Buffer, fileName: string): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)]), fileName);
  return body;
}

/** Seeds one package of `count` versions, each with one file of the same small blob, straight into SQLite. */
function seed(
  dbFile: string,
  owner: string,
  type: string,
  name: string,
  count: number,
  metadata: (v: string) => string,
  file: (v: string) => string,
): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  try {
    const now = new Date().toISOString().replace('Z', '+00:00');
    const ownerId = (
      db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner.toLowerCase()) as { id: number }
    ).id;
    const sha256 = createHash('sha256').update(`${type}:${name}`).digest('hex');
    db.transaction(() => {
      db.prepare(
        `INSERT OR IGNORE INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt") VALUES (1024, '', '', ?, '', ?)`,
      ).run(sha256, now);
      const blobId = (db.prepare(`SELECT "id" FROM "PackageBlob" WHERE "hashSha256" = ?`).get(sha256) as { id: number })
        .id;
      const packageId = Number(
        db
          .prepare(`INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, ?, ?, ?)`)
          .run(ownerId, type, name, name.toLowerCase()).lastInsertRowid,
      );
      const version = db.prepare(
        `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt") VALUES (?, ?, ?, ?, ?)`,
      );
      const fileRow = db.prepare(
        `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "isLead", "createdAt") VALUES (?, ?, ?, ?, 1, ?)`,
      );
      for (let i = 0; i < count; i++) {
        const v = `1.${Math.floor(i / 100)}.${i % 100}`;
        const versionId = Number(version.run(packageId, v, v, metadata(v), now).lastInsertRowid);
        fileRow.run(versionId, blobId, file(v), file(v).toLowerCase(), now);
      }
    })();
  } finally {
    db.close();
  }
}

interface Registry {
  type: string;
  /** Publishes and installs a small package; answers when the install has its file. */
  roundTrip(base: string, owner: string, headers: Record<string, string>): Promise<void>;
  seed(dbFile: string, owner: string, count: number): void;
  /** The index document a client reads, for the seeded package. */
  indexUrl(base: string, owner: string): string;
}

const nuspec = (id: string, version: string) =>
  `<?xml version="1.0"?><package><metadata><id>${id}</id><version>${version}</version><authors>bench</authors><description>bench</description></metadata></package>`;

const REGISTRIES: Registry[] = [
  {
    type: 'nuget',
    async roundTrip(base, owner, headers) {
      const root = `${base}/api/packages/${owner}/nuget`;
      const bytes = await zip({ 'Bench.Small.nuspec': nuspec('Bench.Small', '1.0.0'), 'lib/net8.0/a.dll': 'x' });
      await ok(fetch(`${root}/index.json`, { headers }), 'service index');
      await ok(
        fetch(root, {
          method: 'PUT',
          headers: { 'X-NuGet-ApiKey': headers['X-NuGet-ApiKey'] },
          body: form('package', bytes, 'p.nupkg'),
        }),
        'push',
      );
      await ok(fetch(`${root}/registration/bench.small/index.json`, { headers }), 'registration');
      await ok(fetch(`${root}/package/bench.small/index.json`, { headers }), 'versions');
      await (
        await ok(fetch(`${root}/package/bench.small/1.0.0/bench.small.1.0.0.nupkg`, { headers }), 'download')
      ).arrayBuffer();
    },
    seed(dbFile, owner, count) {
      const metadata = JSON.stringify({ authors: 'bench', description: 'A seeded package', dependency_groups: [] });
      seed(
        dbFile,
        owner,
        'nuget',
        'Bench.Seeded',
        count,
        () => metadata,
        (v) => `bench.seeded.${v}.nupkg`,
      );
    },
    indexUrl: (base, owner) => `${base}/api/packages/${owner}/nuget/registration/bench.seeded/index.json`,
  },
  {
    type: 'helm',
    async roundTrip(base, owner, headers) {
      const root = `${base}/api/packages/${owner}/helm`;
      const bytes = await tarGz({ 'small/Chart.yaml': 'apiVersion: v2\nname: small\nversion: 1.0.0\n' });
      await ok(fetch(`${root}/api/charts`, { method: 'POST', headers, body: form('chart', bytes, 'c.tgz') }), 'upload');
      const index = await (await ok(fetch(`${root}/index.yaml`, { headers }), 'index')).text();
      const url = /urls:\s*\n\s*-\s*(\S+small-1\.0\.0\.tgz)/.exec(index)?.[1];
      if (!url) throw new Error('index.yaml does not name the chart');
      await (await ok(fetch(url, { headers }), 'download')).arrayBuffer();
    },
    seed(dbFile, owner, count) {
      seed(
        dbFile,
        owner,
        'helm',
        'seeded',
        count,
        (v) => JSON.stringify({ apiVersion: 'v2', name: 'seeded', version: v, description: 'A seeded chart' }),
        (v) => `seeded-${v}.tgz`,
      );
    },
    indexUrl: (base, owner) => `${base}/api/packages/${owner}/helm/index.yaml`,
  },
  {
    type: 'pub',
    async roundTrip(base, owner, headers) {
      const root = `${base}/api/packages/${owner}/pub/api/packages`;
      const bytes = await tarGz({ 'pubspec.yaml': 'name: bench_small\nversion: 1.0.0\n', 'lib/a.dart': '' });
      const target = (await (await ok(fetch(`${root}/versions/new`, { headers }), 'upload target')).json()) as {
        url: string;
      };
      const uploaded = await fetch(target.url, {
        method: 'POST',
        headers,
        body: form('file', bytes, 'p.tar.gz'),
        redirect: 'manual',
      });
      if (uploaded.status !== 204) throw new Error(`upload answered ${uploaded.status}`);
      await ok(fetch(uploaded.headers.get('location')!, { headers }), 'finalize');
      const document = (await (await ok(fetch(`${root}/bench_small`, { headers }), 'package')).json()) as {
        latest: { archive_url: string };
      };
      await (await ok(fetch(document.latest.archive_url, { headers }), 'download')).arrayBuffer();
    },
    seed(dbFile, owner, count) {
      seed(
        dbFile,
        owner,
        'pub',
        'bench_seeded',
        count,
        (v) => JSON.stringify({ pubspec: { name: 'bench_seeded', version: v } }),
        (v) => `${v}.tar.gz`,
      );
    },
    indexUrl: (base, owner) => `${base}/api/packages/${owner}/pub/api/packages/bench_seeded`,
  },
];

export async function benchNugetHelmPub(options: Options): Promise<RegistryGoalRow[]> {
  const headers = { Authorization: `token ${options.token}`, 'X-NuGet-ApiKey': options.token };
  const rows: RegistryGoalRow[] = [];
  console.log(
    '\n| registry | publish + install, small package | index req/s, 10 versions | 1,000 versions | ratio |\n|---|---|---|---|---|',
  );
  let ownerIndex = 0;
  for (const registry of REGISTRIES) {
    const started = performance.now();
    await registry.roundTrip(options.base, options.owners[0], headers);
    const roundTripMs = performance.now() - started;
    const rates: number[] = [];
    for (const size of SIZES) {
      const owner = options.owners[1 + ownerIndex++];
      registry.seed(options.dbFile, owner, size);
      const url = registry.indexUrl(options.base, owner);
      const check = await fetch(url, { headers: { Authorization: headers.Authorization } });
      if (check.status !== 200) throw new Error(`${url} answered ${check.status}`);
      await check.arrayBuffer();
      // As the clients read it: NuGet's, Helm's (Go's) and pub's (Dart's) HTTP clients all accept gzip.
      const result = await options.measure(url, { Authorization: headers.Authorization, 'Accept-Encoding': 'gzip' });
      if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
      rates.push(result.rps);
    }
    const [small, large] = rates;
    const ratio = small / large;
    console.log(
      `| ${registry.type} | ${roundTripMs.toFixed(0)} ms | ${small.toFixed(0)} | ${large.toFixed(0)} | ${ratio.toFixed(2)} |`,
    );
    rows.push(
      {
        name: `${registry.type}: publish + install of a small package (HTTP, as the client does)`,
        measured: `${roundTripMs.toFixed(0)} ms`,
        goal: 'recorded',
        met: true,
      },
      {
        name: `${registry.type}: index document, 1,000 versions`,
        measured: `${large.toFixed(0)} req/s`,
        goal: `≥ ${GOAL_RPS} req/s`,
        met: large >= GOAL_RPS,
      },
      {
        name: `${registry.type}: index document, 10 → 1,000 versions`,
        measured: `${ratio.toFixed(2)}×`,
        goal: `≤ ${FLAT_GOAL}×`,
        met: ratio <= FLAT_GOAL,
      },
    );
  }
  return rows;
}
