// The Cargo rows of `npm run bench`: the real cargo publishing a small crate to Anvil and building a crate that
// depends on it (wall time of each, the build's including rustc's), and the requests/s of a crate's sparse index
// file with 10 and with 1,000 versions seeded directly in the database, read as cargo reads it (goal ≥ 500 req/s at 1,000, and the two
// within 1.5× of each other).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

const root = path.resolve(__dirname, '..');
const DURATION = Number(process.env.BENCH_CARGO_DURATION ?? 5);
const RPS_GOAL = 500;
const FLAT_GOAL = 1.5;
const PUBLISH_GOAL_S = 5;
const BUILD_GOAL_S = 15;

export interface CargoGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return (performance.now() - started) / 1000;
}

function indexPath(name: string): string {
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

/** A crate of `versions` versions, its rows written straight into the database. */
function seedCrate(dbFile: string, owner: string, name: string, versions: number): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  const { id: ownerId } = db.prepare(`SELECT "id" FROM "User" WHERE "lowerName" = ?`).get(owner) as { id: number };
  const now = new Date().toISOString().replace('Z', '+00:00');
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  const metadata = JSON.stringify({
    dependencies: [
      {
        name: 'serde',
        req: '^1.0',
        features: ['derive'],
        optional: false,
        default_features: true,
        target: null,
        kind: 'normal',
        registry: null,
      },
    ],
    features: { default: ['std'], std: [] },
    description: `bench crate ${name}`,
  });
  db.transaction(() => {
    const blobId = db
      .prepare(
        `INSERT INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt")
         VALUES (1024, ?, ?, ?, ?, ?)`,
      )
      .run(hex(16), hex(20), hex(32), hex(64), now).lastInsertRowid;
    const packageId = db
      .prepare(`INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, 'cargo', ?, ?)`)
      .run(ownerId, name, name).lastInsertRowid;
    const version = db.prepare(
      `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt")
       VALUES (?, ?, ?, ?, ?)`,
    );
    const file = db.prepare(
      `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "isLead", "createdAt")
       VALUES (?, ?, ?, ?, 1, ?)`,
    );
    for (let i = 0; i < versions; i++) {
      const vers = `1.${Math.floor(i / 100)}.${i % 100}`;
      const versionId = version.run(packageId, vers, vers, metadata, now).lastInsertRowid;
      const fileName = `${name}-${vers}.crate`;
      file.run(versionId, blobId, fileName, fileName, now);
    }
  })();
  db.close();
}

function autocannon(url: string, headers: Record<string, string>) {
  const args = ['-c', '32', '-d', String(DURATION), '-j'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  return run(path.join(root, 'node_modules/.bin/autocannon'), [...args, url], root).then((stdout) => {
    const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number };
    if (result.non2xx > 0) console.log(`  (${result.non2xx} non-2xx answers from ${url})`);
    return result.requests.average;
  });
}

/** Publish and build with the real cargo, in a CARGO_HOME of its own naming the owner's registry `anvil`. */
async function publishAndBuild(
  base: string,
  owner: string,
  token: string,
): Promise<{ publish: number; build: number }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-cargo-'));
  try {
    const home = path.join(work, 'home');
    fs.mkdirSync(home);
    fs.writeFileSync(
      path.join(home, 'config.toml'),
      `[registries.anvil]\nindex = "sparse+${base}/api/packages/${owner}/cargo/"\n`,
    );
    const env = { ...process.env, CARGO_HOME: home, CARGO_REGISTRIES_ANVIL_TOKEN: `Bearer ${token}` };
    const name = `bench-greet-${randomBytes(3).toString('hex')}`;
    const lib = path.join(work, 'lib');
    fs.mkdirSync(path.join(lib, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(lib, 'Cargo.toml'),
      `[package]\nname = "${name}"\nversion = "1.0.0"\nedition = "2021"\ndescription = "bench"\nlicense = "MIT"\n`,
    );
    fs.writeFileSync(path.join(lib, 'src', 'lib.rs'), 'pub fn greeting() -> &\'static str { "hello" }\n');
    const app = path.join(work, 'app');
    fs.mkdirSync(path.join(app, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(app, 'Cargo.toml'),
      `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n` +
        `${name} = { version = "1", registry = "anvil" }\n`,
    );
    fs.writeFileSync(
      path.join(app, 'src', 'main.rs'),
      `fn main() { println!("{}", ${name.replace(/-/g, '_')}::greeting()); }\n`,
    );
    const publish = await timed(() =>
      run('cargo', ['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty', '--quiet'], lib, env),
    );
    const build = await timed(() => run('cargo', ['build', '--quiet'], app, env));
    return { publish, build };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Runs the rows against the running server; `dbFile` is its SQLite database. */
export async function benchCargo(anvil: {
  base: string;
  token: string;
  owner: string;
  dbFile: string;
}): Promise<CargoGoalRow[]> {
  const rows: CargoGoalRow[] = [];
  try {
    const { publish, build } = await publishAndBuild(anvil.base, anvil.owner, anvil.token);
    console.log(
      `cargo publish of a small crate: ${publish.toFixed(2)} s; cargo build of a dependent: ${build.toFixed(2)} s`,
    );
    rows.push({
      name: 'cargo publish of a small crate (wall time)',
      measured: `${publish.toFixed(2)} s`,
      goal: `< ${PUBLISH_GOAL_S} s`,
      met: publish < PUBLISH_GOAL_S,
    });
    rows.push({
      name: 'cargo build of a crate depending on it (wall time, rustc included)',
      measured: `${build.toFixed(2)} s`,
      goal: `< ${BUILD_GOAL_S} s`,
      met: build < BUILD_GOAL_S,
    });
  } catch (error) {
    console.log(`cargo publish/build failed: ${(error as Error).message}`);
    rows.push({ name: 'cargo publish + build', measured: 'failed', goal: 'runs', met: false });
  }

  const rps: Record<number, number> = {};
  // As cargo reads a public registry's index: no token (config.json says none is needed), gzip accepted.
  const headers = { 'Accept-Encoding': 'deflate, gzip' };
  for (const versions of [10, 1000]) {
    const name = `bench-index-${versions}-${randomBytes(2).toString('hex')}`;
    seedCrate(anvil.dbFile, anvil.owner, name, versions);
    const url = `${anvil.base}/api/packages/${anvil.owner}/cargo/${indexPath(name)}`;
    const check = await fetch(url);
    const lines = (await check.text()).trim().split('\n').length;
    if (check.status !== 200 || lines !== versions)
      console.log(`  (index of ${name}: ${check.status}, ${lines} lines)`);
    rps[versions] = await autocannon(url, headers);
  }
  const ratio = rps[10] / rps[1000];
  console.log(
    `cargo sparse index file GET: ${rps[10].toFixed(0)} req/s at 10 versions, ${rps[1000].toFixed(0)} at 1,000 ` +
      `(ratio ${ratio.toFixed(2)})`,
  );
  rows.push({
    name: 'cargo sparse index file GET, 1,000 versions',
    measured: `${rps[1000].toFixed(0)} req/s`,
    goal: `≥ ${RPS_GOAL} req/s`,
    met: rps[1000] >= RPS_GOAL,
  });
  rows.push({
    name: 'cargo sparse index file GET, 10 vs 1,000 versions',
    measured: `${rps[10].toFixed(0)} vs ${rps[1000].toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`,
    goal: `within ${FLAT_GOAL}×`,
    met: ratio <= FLAT_GOAL,
  });
  return rows;
}
