// The RubyGems and CRAN rows of `npm run bench`: for each, the wall time of the real client publishing and installing
// a small package (`gem build` + `gem push` + `gem install` into a fresh GEM_HOME; `R CMD build` + upload +
// install.packages into a fresh library; skipped when the client is missing), and the requests/s of the index
// document the client reads first (specs.4.8.gz; src/contrib/PACKAGES.gz) with 10 and with 1,000 versions seeded
// directly in the database — goal ≥ 500 req/s, and flat: the 1,000-version rate within 1.5× of the 10-version one.
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';

const run = promisify(execFile);
const RPS_GOAL = 500;
const FLAT_GOAL = 1.5;
/** 1,000 versions: 100 packages of 10 versions each; the small owner has one package of 10 versions. */
const PACKAGES = 100;
const VERSIONS_EACH = 10;

export interface GemCranGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

export type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

interface Bench {
  base: string;
  token: string;
  /** The SQLite database the running server uses, to seed versions into. */
  dbFile: string;
  /** Owners seeded with versions: [small, large]; each must exist and have none of these types yet. */
  owners: [string, string];
  /** A user whose token publishes. */
  publisher: string;
  measure: Measure;
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Versions written as the registries write them: package, version, one file, one shared blob. */
function seedVersions(dbFile: string, owner: string, type: 'rubygems' | 'cran', packages: number): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  const now = new Date().toISOString().replace('Z', '+00:00');
  const ownerId = (db.prepare('SELECT "id" FROM "User" WHERE "lowerName" = ?').get(owner) as { id: number }).id;
  const bytes = randomBytes(64);
  const hash = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
  db.prepare(
    `INSERT OR IGNORE INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(bytes.length, hash('md5'), hash('sha1'), hash('sha256'), hash('sha512'), now);
  const blobId = (
    db.prepare('SELECT "id" FROM "PackageBlob" WHERE "hashSha256" = ?').get(hash('sha256')) as { id: number }
  ).id;
  const insertPackage = db.prepare(
    `INSERT INTO "Package" ("ownerId", "type", "name", "lowerName") VALUES (?, ?, ?, ?)`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO "PackageVersion" ("packageId", "version", "lowerVersion", "metadataJson", "createdAt")
     VALUES (?, ?, ?, ?, ?)`,
  );
  const insertFile = db.prepare(
    `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "isLead", "createdAt")
     VALUES (?, ?, ?, ?, 1, ?)`,
  );
  db.transaction(() => {
    for (let p = 0; p < packages; p++) {
      const name = type === 'cran' ? `benchPkg${p}` : `bench_gem_${p}`;
      const packageId = Number(insertPackage.run(ownerId, type, name, name.toLowerCase()).lastInsertRowid);
      for (let v = 0; v < VERSIONS_EACH; v++) {
        const version = `1.${v}.0`;
        const metadata =
          type === 'cran'
            ? { license: 'MIT', depends: ['R (>= 3.5)'], imports: ['utils'], needsCompilation: false }
            : {
                platform: 'ruby',
                summary: 'bench',
                runtimeDependencies: [{ name: 'rake', requirement: [['>=', '1']] }],
              };
        const versionId = Number(
          insertVersion.run(packageId, version, version, JSON.stringify(metadata), now).lastInsertRowid,
        );
        const fileName = type === 'cran' ? `${name}_${version}.tar.gz` : `${name}-${version}.gem`;
        insertFile.run(versionId, blobId, fileName, fileName.toLowerCase(), now);
      }
    }
  })();
  db.close();
}

async function wallTime(steps: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await steps();
  return performance.now() - started;
}

async function gemRoundTrip(bench: Bench, work: string): Promise<number> {
  const dir = path.join(work, 'gem');
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'lib', 'bench_probe.rb'), 'module BenchProbe; VALUE = 1; end\n');
  fs.writeFileSync(
    path.join(dir, 'bench_probe.gemspec'),
    'Gem::Specification.new { |s| s.name = "bench_probe"; s.version = "1.0.0"; s.summary = "bench"; ' +
      's.authors = ["Anvil"]; s.files = ["lib/bench_probe.rb"] }\n',
  );
  const registry = `${bench.base}/api/packages/${bench.publisher}/rubygems`;
  const home = path.join(work, 'gem-home');
  const env = { ...process.env, HOME: work, GEM_HOME: home, GEM_PATH: home, GEM_HOST_API_KEY: `Bearer ${bench.token}` };
  return wallTime(async () => {
    await run('gem', ['build', 'bench_probe.gemspec'], { cwd: dir, env });
    await run('gem', ['push', 'bench_probe-1.0.0.gem', '--host', registry], { cwd: dir, env });
    await run('gem', ['install', '--clear-sources', '--source', `${registry}/`, '--no-document', 'bench_probe'], {
      cwd: dir,
      env,
    });
  });
}

async function cranRoundTrip(bench: Bench, work: string): Promise<number> {
  const dir = path.join(work, 'cran', 'benchProbe');
  fs.mkdirSync(path.join(dir, 'R'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'DESCRIPTION'),
    'Package: benchProbe\nVersion: 1.0.0\nTitle: Bench\nDescription: Bench.\nAuthor: Anvil\n' +
      'Maintainer: Anvil <a@example.com>\nLicense: MIT\n',
  );
  fs.writeFileSync(path.join(dir, 'R', 'probe.R'), 'probe <- function() 1\n');
  fs.writeFileSync(path.join(dir, 'NAMESPACE'), 'export(probe)\n');
  const registry = `${bench.base}/api/packages/${bench.publisher}/cran`;
  const lib = path.join(work, 'cran-lib');
  fs.mkdirSync(lib);
  const env = { ...process.env, HOME: work };
  return wallTime(async () => {
    await run('R', ['CMD', 'build', '--no-build-vignettes', '--no-manual', 'benchProbe'], {
      cwd: path.dirname(dir),
      env,
    });
    const res = await fetch(`${registry}/src`, {
      method: 'PUT',
      headers: { Authorization: `token ${bench.token}` },
      body: fs.readFileSync(path.join(path.dirname(dir), 'benchProbe_1.0.0.tar.gz')),
    });
    if (res.status !== 201) throw new Error(`the CRAN upload answered ${res.status}`);
    await run(
      'Rscript',
      ['-e', `install.packages("benchProbe", repos = "${registry}", lib = "${lib}", quiet = TRUE)`],
      {
        env,
      },
    );
    if (!fs.existsSync(path.join(lib, 'benchProbe'))) throw new Error('install.packages did not install benchProbe');
  });
}

interface RegistryRows {
  label: string;
  type: 'rubygems' | 'cran';
  client: string;
  roundTrip: (bench: Bench, work: string) => Promise<number>;
  index: string;
}

const REGISTRIES: RegistryRows[] = [
  { label: 'RubyGems', type: 'rubygems', client: 'gem', roundTrip: gemRoundTrip, index: 'specs.4.8.gz' },
  { label: 'CRAN', type: 'cran', client: 'Rscript', roundTrip: cranRoundTrip, index: 'src/contrib/PACKAGES.gz' },
];

export async function benchGemCran(bench: Bench): Promise<GemCranGoalRow[]> {
  const rows: GemCranGoalRow[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-gemcran-'));
  const headers = { Authorization: `token ${bench.token}` };
  try {
    console.log('\n| registry | client publish + install, ms | index req/s, 10 versions | 1,000 versions | ratio |');
    console.log('|---|---|---|---|---|');
    for (const registry of REGISTRIES) {
      let wall = NaN;
      if (has(registry.client)) wall = await registry.roundTrip(bench, work);
      const [small, large] = bench.owners;
      seedVersions(bench.dbFile, small, registry.type, 1);
      seedVersions(bench.dbFile, large, registry.type, PACKAGES);
      const url = (owner: string) => `${bench.base}/api/packages/${owner}/${registry.type}/${registry.index}`;
      const few = await bench.measure(url(small), headers);
      const many = await bench.measure(url(large), headers);
      const ratio = few.rps / many.rps;
      if (few.non2xx + many.non2xx > 0) console.log(`  (${registry.label}: non-2xx index answers during the run)`);
      console.log(
        `| ${registry.label} | ${Number.isNaN(wall) ? `${registry.client} missing` : wall.toFixed(0)} | ${few.rps.toFixed(0)} | ${many.rps.toFixed(0)} | ${ratio.toFixed(2)} |`,
      );
      rows.push({
        name: `${registry.label}: ${registry.client} publish + install of a small package`,
        measured: Number.isNaN(wall) ? `not measured (${registry.client} missing)` : `${wall.toFixed(0)} ms`,
        goal: 'measured',
        met: !Number.isNaN(wall),
      });
      rows.push({
        name: `${registry.label}: ${registry.index} GET with 1,000 versions`,
        measured: `${many.rps.toFixed(0)} req/s (10 versions: ${few.rps.toFixed(0)}, ratio ${ratio.toFixed(2)})`,
        goal: `≥ ${RPS_GOAL} req/s, within ${FLAT_GOAL}× of 10 versions`,
        met: many.rps >= RPS_GOAL && ratio <= FLAT_GOAL && many.non2xx === 0,
      });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
