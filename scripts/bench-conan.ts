// The Conan rows of `npm run bench` (no conan client runs here, so its requests are made over HTTP as conan 2
// makes them): the wall time of uploading a small recipe and package and then installing them, and the requests/s
// of the documents conan reads — a recipe's revisions and its binary packages' search — with 10 and with 1,000
// recipe revisions seeded directly in the SQLite database: goal ≥ 500 req/s, and the 1,000-revision rate within
// 1.5× of the 10-revision one.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import tar from 'tar-stream';

const GOAL_RPS = 500;
const FLAT_GOAL = 1.5;
const SIZES = [10, 1000] as const;

export interface ConanGoalRow {
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
  /** The owner of the round trip, then one per seeded size: public users the token may read. */
  owners: string[];
  measure: Measure;
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

/** `conan upload` then `conan install` of a small recipe with one binary package (conan 2's requests). */
async function roundTrip(base: string, owner: string, token: string): Promise<void> {
  const root = `${base}/api/packages/${owner}/conan`;
  const basic = `Basic ${Buffer.from(`${owner}:${token}`).toString('base64')}`;
  await ok(fetch(`${root}/v1/ping`), 'ping');
  const bearer = await (
    await ok(fetch(`${root}/v2/users/authenticate`, { headers: { Authorization: basic } }), 'authenticate')
  ).text();
  const headers = { Authorization: `Bearer ${bearer}` };
  const ref = `${root}/v2/conans/benchsmall/1.0/_/_`;
  const rrev = 'a'.repeat(32);
  const prev = 'b'.repeat(32);
  const pkg = `${ref}/revisions/${rrev}/packages/${'c'.repeat(40)}`;
  const recipe = {
    'conanfile.py': 'from conan import ConanFile\nclass P(ConanFile):\n    name = "benchsmall"\n',
    'conan_export.tgz': await tarGz({ 'conandata.yml': '{}\n' }),
    'conanmanifest.txt': '1700000000\n',
  };
  const binary = {
    'conaninfo.txt': '[settings]\nos=Linux\n',
    'conan_package.tgz': await tarGz({ 'include/small.h': '' }),
    'conanmanifest.txt': '1700000000\n',
  };
  for (const [file, body] of Object.entries(recipe))
    await ok(fetch(`${ref}/revisions/${rrev}/files/${file}`, { method: 'PUT', headers, body }), `upload ${file}`);
  for (const [file, body] of Object.entries(binary))
    await ok(fetch(`${pkg}/revisions/${prev}/files/${file}`, { method: 'PUT', headers, body }), `upload ${file}`);
  const latest = (await (await ok(fetch(`${ref}/latest`, { headers }), 'latest')).json()) as { revision: string };
  const files = (await (await ok(fetch(`${ref}/revisions/${latest.revision}/files`, { headers }), 'files')).json()) as {
    files: Record<string, unknown>;
  };
  for (const file of Object.keys(files.files))
    await (await ok(fetch(`${ref}/revisions/${latest.revision}/files/${file}`, { headers }), file)).arrayBuffer();
  const pkgLatest = (await (await ok(fetch(`${pkg}/latest`, { headers }), 'package latest')).json()) as {
    revision: string;
  };
  for (const file of Object.keys(binary))
    await (await ok(fetch(`${pkg}/revisions/${pkgLatest.revision}/files/${file}`, { headers }), file)).arrayBuffer();
}

/**
 * Seeds recipe `benchseeded/1.0@bench/stable` with `count` revisions, each with its conanfile.py, manifest and one
 * binary package (conaninfo.txt with its parsed property), straight into SQLite.
 */
function seed(dbFile: string, owner: string, count: number): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  try {
    const now = Date.now();
    const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
    const ownerId = (
      db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner.toLowerCase()) as { id: number }
    ).id;
    const sha256 = createHash('sha256').update(`conan:${owner}`).digest('hex');
    db.transaction(() => {
      db.prepare(
        `INSERT OR IGNORE INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt") VALUES (64, ?, '', ?, '', ?)`,
      ).run('0'.repeat(32), sha256, stamp(now));
      const blobId = (db.prepare(`SELECT "id" FROM "PackageBlob" WHERE "hashSha256" = ?`).get(sha256) as { id: number })
        .id;
      const packageId = Number(
        db
          .prepare(`INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, 'conan', ?, ?)`)
          .run(ownerId, 'benchseeded', 'benchseeded').lastInsertRowid,
      );
      const versionId = Number(
        db
          .prepare(
            `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt") VALUES (?, '1.0', '1.0', '{}', ?)`,
          )
          .run(packageId, stamp(now)).lastInsertRowid,
      );
      const file = db.prepare(
        `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "compositeKey", "isLead", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      const property = db.prepare(
        `INSERT INTO "PackageProperty" ("refType", "refId", "name", "value") VALUES (1, ?, 'conan.package.info', ?)`,
      );
      const info = JSON.stringify({ settings: { os: 'Linux' }, options: {}, requires: [] });
      for (let i = 0; i < count; i++) {
        const rrev = `rev${i}`;
        const at = stamp(now - (count - i) * 1000);
        const recipeKey = `bench|stable|${rrev}`;
        file.run(versionId, blobId, 'conanfile.py', 'conanfile.py', recipeKey, 1, at);
        file.run(versionId, blobId, 'conanmanifest.txt', 'conanmanifest.txt', recipeKey, 0, at);
        const infoId = Number(
          file.run(versionId, blobId, 'conaninfo.txt', 'conaninfo.txt', `${recipeKey}|pkg${i % 3}|p${i}`, 0, at)
            .lastInsertRowid,
        );
        property.run(infoId, info);
      }
    })();
  } finally {
    db.close();
  }
}

const DOCUMENTS = [
  { name: 'revisions', path: '/revisions' },
  { name: 'binary package search', path: '/search' },
] as const;

export async function benchConan(options: Options): Promise<ConanGoalRow[]> {
  // As conan sends them: python-requests always accepts gzip.
  const auth = { Authorization: `token ${options.token}`, 'Accept-Encoding': 'gzip, deflate' };
  const started = performance.now();
  await roundTrip(options.base, options.owners[0], options.token);
  const roundTripMs = performance.now() - started;
  const rows: ConanGoalRow[] = [
    {
      name: 'conan: upload + install of a small recipe and package (HTTP, as conan 2 does)',
      measured: `${roundTripMs.toFixed(0)} ms`,
      goal: 'recorded',
      met: true,
    },
  ];
  const urls = SIZES.map((size, i) => {
    const owner = options.owners[1 + i];
    seed(options.dbFile, owner, size);
    return `${options.base}/api/packages/${owner}/conan/v2/conans/benchseeded/1.0/bench/stable`;
  });
  console.log('\n| conan document | req/s, 10 revisions | 1,000 revisions | ratio |\n|---|---|---|---|');
  for (const document of DOCUMENTS) {
    const rates: number[] = [];
    for (const base of urls) {
      const url = base + document.path;
      const check = await fetch(url, { headers: auth });
      if (check.status !== 200) throw new Error(`${url} answered ${check.status}`);
      await check.arrayBuffer();
      const result = await options.measure(url, auth);
      if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
      rates.push(result.rps);
    }
    const [small, large] = rates;
    const ratio = small / large;
    console.log(`| ${document.name} | ${small.toFixed(0)} | ${large.toFixed(0)} | ${ratio.toFixed(2)} |`);
    rows.push(
      {
        name: `conan: ${document.name}, 1,000 revisions`,
        measured: `${large.toFixed(0)} req/s`,
        goal: `≥ ${GOAL_RPS} req/s`,
        met: large >= GOAL_RPS,
      },
      {
        name: `conan: ${document.name}, 10 → 1,000 revisions`,
        measured: `${ratio.toFixed(2)}×`,
        goal: `≤ ${FLAT_GOAL}×`,
        met: ratio <= FLAT_GOAL,
      },
    );
  }
  return rows;
}
