// The Chef rows of `npm run bench` (no knife runs here, so its requests are made over HTTP and signed as it signs
// them): the wall time of sharing a small cookbook and installing it (show, version, download), and the requests/s
// of the universe Berkshelf reads, signed with the owner's key, with 10 and with 1,000 versions seeded directly in
// the SQLite database — goal ≥ 500 req/s with 1,000, and within 1.5× of the 10-version rate — each beside a bare
// server answering the same bytes (bench-same-bytes.ts).
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { chefHeaders, shareBody } from '../tests/helpers/chef-sign.ts';
import { tarGz } from '../tests/helpers/tar-gz.ts';
import type { RegistryGoalRow } from './bench-nuget.ts';
import { againstBareServer, type ServerRun, sameBytesRow } from './bench-same-bytes.ts';

const GOAL_RPS = 500;
const FLAT_GOAL = 1.5;

type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

interface Options {
  base: string;
  /** A token that reads every owner's packages, for the same document read with the API's credentials. */
  token: string;
  dbFile: string;
  /** The owner that shares, then one owner per seeded size; each gets a Chef key. */
  owners: [string, string, string];
  measure: Measure;
  /** The server's process, for its CPU per request. */
  pid: number;
}

/** Gives the user a key pair, its public half where the registry keeps it (the `chef.public_pem` setting). */
function giveKey(dbFile: string, owner: string): KeyObject {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  try {
    const { id } = db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner.toLowerCase()) as {
      id: number;
    };
    db.prepare(`INSERT INTO "UserSetting" ("userId", "key", "value") VALUES (?, 'chef.public_pem', ?)`).run(
      id,
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
  } finally {
    db.close();
  }
  return privateKey;
}

/** One cookbook of `count` versions, each depending on another cookbook, straight into SQLite. */
function seedVersions(dbFile: string, owner: string, count: number): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  try {
    const now = new Date().toISOString().replace('Z', '+00:00');
    const { id: ownerId } = db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner.toLowerCase()) as {
      id: number;
    };
    const sha256 = createHash('sha256').update('chef:seeded').digest('hex');
    db.transaction(() => {
      db.prepare(
        `INSERT OR IGNORE INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt") VALUES (1024, '', '', ?, '', ?)`,
      ).run(sha256, now);
      const { id: blobId } = db.prepare(`SELECT "id" FROM "PackageBlob" WHERE "hashSha256" = ?`).get(sha256) as {
        id: number;
      };
      const packageId = Number(
        db
          .prepare(
            `INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, 'chef', 'seeded', 'seeded')`,
          )
          .run(ownerId).lastInsertRowid,
      );
      const version = db.prepare(
        `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt") VALUES (?, ?, ?, ?, ?)`,
      );
      const file = db.prepare(
        `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "isLead", "createdAt") VALUES (?, ?, ?, ?, 1, ?)`,
      );
      for (let i = 0; i < count; i++) {
        const v = `1.${Math.floor(i / 100)}.${i % 100}`;
        const metadata = JSON.stringify({
          description: 'A seeded cookbook',
          author: 'bench',
          license: 'Apache-2.0',
          dependencies: { other: '>= 1.0' },
        });
        const versionId = Number(version.run(packageId, v, v, metadata, now).lastInsertRowid);
        file.run(versionId, blobId, `${v}.tar.gz`, `${v}.tar.gz`, now);
      }
    })();
  } finally {
    db.close();
  }
}

async function ok(response: Promise<Response>, what: string): Promise<Response> {
  const res = await response;
  if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** knife supermarket share, then what `knife supermarket install` reads: show, the latest version, its tarball. */
async function roundTrip(base: string, owner: string, key: KeyObject): Promise<void> {
  const sign = (method: string, url: string, body?: Buffer) =>
    chefHeaders({ method, path: new URL(url).pathname, body, userId: owner, key });
  const api = `${base}/api/packages/${owner}/chef/api/v1`;
  const tarball = await tarGz({
    'small/metadata.json': JSON.stringify({ name: 'small', version: '1.0.0', maintainer: 'bench' }),
    'small/recipes/default.rb': '',
  });
  const { body, contentType } = shareBody(tarball, 'small.tgz');
  const shareUrl = `${api}/cookbooks`;
  await ok(
    fetch(shareUrl, {
      method: 'POST',
      headers: { ...sign('POST', shareUrl, body), 'Content-Type': contentType },
      body: new Uint8Array(body),
    }),
    'share',
  );
  const get = async (url: string, what: string) => ok(fetch(url, { headers: sign('GET', url) }), what);
  const show = (await (await get(`${api}/cookbooks/small`, 'show')).json()) as { latest_version: string };
  const version = (await (await get(show.latest_version, 'version')).json()) as { file: string };
  await (await get(version.file, 'download')).arrayBuffer();
}

export async function benchChef(options: Options): Promise<RegistryGoalRow[]> {
  const [publisher, ...seeded] = options.owners;
  const started = performance.now();
  await roundTrip(options.base, publisher, giveKey(options.dbFile, publisher));
  const roundTripMs = performance.now() - started;
  const rates: number[] = [];
  const runs: { anvil: ServerRun; bare: ServerRun; bytes: number }[] = [];
  const rate = async (url: string, headers: Record<string, string>) => {
    const result = await options.measure(url, headers);
    if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
    return result.rps;
  };
  let tokenRate = 0;
  for (const [index, size] of [10, 1000].entries()) {
    const owner = seeded[index];
    const key = giveKey(options.dbFile, owner);
    seedVersions(options.dbFile, owner, size);
    const url = `${options.base}/api/packages/${owner}/chef/api/v1/universe`;
    // The signature holds for ten minutes, as long as the run; every request is checked against the key again.
    const headers = chefHeaders({ method: 'GET', path: new URL(url).pathname, userId: owner, key });
    const check = await fetch(url, { headers });
    if (check.status !== 200) throw new Error(`${url} answered ${check.status}: ${await check.text()}`);
    await check.arrayBuffer();
    const run = await againstBareServer(url, headers, rate, options.pid);
    runs.push(run);
    rates.push(run.anvil.rps);
    if (size === 1000) {
      const withToken = await options.measure(url, { Authorization: `token ${options.token}` });
      tokenRate = withToken.rps;
    }
  }
  const [small, large] = rates;
  const ratio = small / large;
  console.log(
    `\n| registry | share + install, small cookbook | universe req/s, 10 versions | 1,000 versions | ratio | 1,000, token |\n|---|---|---|---|---|---|`,
  );
  console.log(
    `| chef | ${roundTripMs.toFixed(0)} ms | ${small.toFixed(0)} | ${large.toFixed(0)} | ${ratio.toFixed(2)} | ${tokenRate.toFixed(0)} |`,
  );
  return [
    {
      name: 'chef: share + install of a small cookbook (signed HTTP, as knife does)',
      measured: `${roundTripMs.toFixed(0)} ms`,
      goal: 'recorded',
      met: true,
    },
    {
      name: 'chef: universe (signed), 1,000 versions',
      measured: `${large.toFixed(0)} req/s`,
      goal: `≥ ${GOAL_RPS} req/s`,
      met: large >= GOAL_RPS,
    },
    {
      name: 'chef: universe, 10 → 1,000 versions',
      measured: `${ratio.toFixed(2)}×`,
      goal: `≤ ${FLAT_GOAL}×`,
      met: ratio <= FLAT_GOAL,
    },
    sameBytesRow('chef universe (signed)', [runs[0].anvil, runs[1].anvil], [runs[0].bare, runs[1].bare], runs[1].bytes),
  ];
}
