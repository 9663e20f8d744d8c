// The Go and Composer rows of `npm run bench`. For each registry: a small package published and installed by its
// real client (wall time, when the client is on this machine: go, composer), and its index document (Go's
// `@v/list`, Composer's `p2/{name}.json`) fetched by autocannon with 10 and with 1,000 versions seeded straight
// into the database — goal ≥ 500 req/s at 1,000 versions, and 1,000 versions within 1.5× the rate of 10 — each
// beside a bare server answering the same bytes (bench-same-bytes.ts).
import { asksCompressed, wrk, wrkInstalled } from './bench-wrk.ts';
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { againstBareServer, type ServerRun, sameBytesRow } from './bench-same-bytes.ts';
import yazl from 'yazl';

const root = path.resolve(__dirname, '..');
const DURATION = Number(process.env.BENCH_GOCOMPOSER_DURATION ?? 5);
const CONNECTIONS = 32;
const RPS_GOAL = 500;
const FLAT_GOAL = 1.5;
const SIZES = [10, 1000] as const;

export interface GoComposerGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

interface Anvil {
  base: string;
  token: string;
  owner: string;
  /** The server's SQLite database, seeded directly. */
  dbFile: string;
  /** The server's process, for its CPU per request. */
  pid: number;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

function zip(files: Record<string, string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) archive.addBuffer(Buffer.from(content), name);
  archive.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

async function put(url: string, token: string, body: Buffer): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers: { Authorization: `token ${token}` }, body });
  if (res.status !== 201) throw new Error(`PUT ${url} answered ${res.status}: ${await res.text()}`);
}

/** Both clients ask for gzip (go's net/http and composer's curl), and so does the bench. */
const requestHeaders = (token: string) => ({ Authorization: `token ${token}`, 'Accept-Encoding': 'gzip' });

async function autocannonRps(url: string, token: string): Promise<number> {
  return rateOf(url, requestHeaders(token));
}

async function rateOf(url: string, headers: Record<string, string>): Promise<number> {
  if (asksCompressed(headers) && wrkInstalled()) return (await wrk(url, headers, DURATION, CONNECTIONS)).rps;
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const args = ['-c', String(CONNECTIONS), '-d', String(DURATION), '-j', ...headerArgs, url];
  const result = JSON.parse(await run(path.join(root, 'node_modules/.bin/autocannon'), args, { cwd: root }));
  if (result.non2xx > 0) console.log(`  (${result.non2xx} non-2xx answers from ${url})`);
  return result.requests.average as number;
}

/** `count` versions of a package with one file each, written straight into the database. */
function seedVersions(
  dbFile: string,
  owner: string,
  type: string,
  name: string,
  count: number,
  version: (i: number) => string,
  metadata: (i: number) => string,
  fileName: (version: string) => string,
): void {
  const db = new BetterSqlite3(dbFile);
  db.pragma('busy_timeout = 10000');
  try {
    const ownerId = (db.prepare('SELECT "id" FROM "User" WHERE "lowerName" = ?').get(owner) as { id: number }).id;
    const now = new Date().toISOString().replace('Z', '+00:00');
    db.transaction(() => {
      const packageId = Number(
        db
          .prepare(
            'INSERT INTO "Package" ("ownerId", "type", "name", "lowerName", "semverCompatible") VALUES (?, ?, ?, ?, 1)',
          )
          .run(ownerId, type, name, name.toLowerCase()).lastInsertRowid,
      );
      const insertVersion = db.prepare(
        `INSERT INTO "PackageVersion" ("packageId", "creatorId", "version", "lowerVersion", "metadataJson", "createdAt")
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      const insertBlob = db.prepare(
        `INSERT INTO "PackageBlob" ("size", "hashMd5", "hashSha1", "hashSha256", "hashSha512", "createdAt")
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      const insertFile = db.prepare(
        `INSERT INTO "PackageFile" ("versionId", "blobId", "name", "lowerName", "isLead", "createdAt")
         VALUES (?, ?, ?, ?, 1, ?)`,
      );
      const hex = (bytes: number) => randomBytes(bytes).toString('hex');
      for (let i = 0; i < count; i++) {
        const v = version(i);
        const versionId = Number(
          insertVersion.run(packageId, ownerId, v, v.toLowerCase(), metadata(i), now).lastInsertRowid,
        );
        const blobId = Number(insertBlob.run(1024, hex(16), hex(20), hex(32), hex(64), now).lastInsertRowid);
        const file = fileName(v);
        insertFile.run(versionId, blobId, file, file.toLowerCase(), now);
      }
    })();
  } finally {
    db.close();
  }
}

/** The index document's rate at each seeded size, and the rows it makes. */
async function indexRows(
  label: string,
  anvil: Anvil,
  seed: (name: string, count: number) => void,
  url: (name: string) => string,
): Promise<GoComposerGoalRow[]> {
  const rates: Record<number, number> = {};
  const runs: Record<number, { anvil: ServerRun; bare: ServerRun; bytes: number }> = {};
  for (const size of SIZES) {
    const name = `bench${size}x${randomBytes(3).toString('hex')}`;
    seed(name, size);
    const check = await fetch(url(name), { headers: { Authorization: `token ${anvil.token}` } });
    if (check.status !== 200) throw new Error(`${label}: ${url(name)} answered ${check.status}`);
    await check.arrayBuffer();
    runs[size] = await againstBareServer(url(name), requestHeaders(anvil.token), rateOf, anvil.pid);
    rates[size] = runs[size].anvil.rps;
    console.log(`| ${label}, ${size} versions | ${rates[size].toFixed(0)} req/s |`);
  }
  const [small, large] = [rates[SIZES[0]], rates[SIZES[1]]];
  const ratio = small / large;
  return [
    {
      name: `${label} with ${SIZES[1]} versions`,
      measured: `${large.toFixed(0)} req/s`,
      goal: `≥ ${RPS_GOAL} req/s`,
      met: large >= RPS_GOAL,
    },
    {
      name: `${label}: ${SIZES[0]} → ${SIZES[1]} versions`,
      measured: `${small.toFixed(0)} → ${large.toFixed(0)} req/s (÷${ratio.toFixed(2)})`,
      goal: `within ${FLAT_GOAL}×`,
      met: ratio <= FLAT_GOAL,
    },
    sameBytesRow(
      label,
      [runs[SIZES[0]].anvil, runs[SIZES[1]].anvil],
      [runs[SIZES[0]].bare, runs[SIZES[1]].bare],
      runs[SIZES[1]].bytes,
    ),
  ];
}

function clientRow(label: string, seconds: number | null, missing: string): GoComposerGoalRow {
  return {
    name: `${label}: publish + install of a small package`,
    measured: seconds === null ? `skipped (${missing} missing)` : `${seconds.toFixed(2)} s`,
    goal: 'reported',
    met: true,
  };
}

async function goPublishAndInstall(anvil: Anvil, work: string): Promise<number> {
  const module = `example.com/bench/m${randomBytes(3).toString('hex')}`;
  const started = performance.now();
  const body = await zip({
    [`${module}@v1.0.0/go.mod`]: `module ${module}\n\ngo 1.19\n`,
    [`${module}@v1.0.0/m.go`]: 'package m\n\nfunc Answer() int { return 42 }\n',
  });
  await put(`${anvil.base}/api/packages/${anvil.owner}/go/upload`, anvil.token, body);
  const cache = path.join(work, 'gopath');
  await run('go', ['mod', 'download', '-json', `${module}@v1.0.0`], {
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: work,
      GOENV: 'off',
      GOPATH: cache,
      GOCACHE: path.join(work, 'gocache'),
      GOPROXY: `${anvil.base}/api/packages/${anvil.owner}/go`,
      GOSUMDB: 'off',
      GOFLAGS: '-modcacherw',
    },
  });
  return (performance.now() - started) / 1000;
}

async function composerPublishAndInstall(anvil: Anvil, work: string): Promise<number> {
  const name = `bench/p${randomBytes(3).toString('hex')}`;
  const repository = `${anvil.base}/api/packages/${anvil.owner}/composer`;
  const started = performance.now();
  const body = await zip({
    'composer.json': JSON.stringify({ name, version: '1.0.0', autoload: { 'psr-4': { 'Bench\\': 'src/' } } }),
    'src/Answer.php': '<?php\nnamespace Bench;\n\nfinal class Answer {}\n',
  });
  await put(repository, anvil.token, body);
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'composer.json'),
    JSON.stringify({
      repositories: [{ type: 'composer', url: repository }, { 'packagist.org': false }],
      config: { 'secure-http': false },
    }),
  );
  const host = new URL(anvil.base).host;
  await run('composer', ['--no-interaction', 'require', `${name}:^1.0`], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: work,
      COMPOSER_HOME: path.join(work, 'composer-home'),
      COMPOSER_CACHE_DIR: path.join(work, 'composer-cache'),
      COMPOSER_AUTH: JSON.stringify({ 'http-basic': { [host]: { username: anvil.owner, password: anvil.token } } }),
      COMPOSER_ALLOW_SUPERUSER: '1',
      COMPOSER_NO_AUDIT: '1',
    },
  });
  return (performance.now() - started) / 1000;
}

export async function benchGoComposer(anvil: Anvil): Promise<GoComposerGoalRow[]> {
  const rows: GoComposerGoalRow[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-gocomposer-'));
  try {
    console.log('\n| Go and Composer registries | measured |\n|---|---|');
    const goSeconds = has('go') ? await goPublishAndInstall(anvil, fs.mkdtempSync(path.join(work, 'go-'))) : null;
    if (goSeconds !== null) console.log(`| go: upload + go mod download | ${goSeconds.toFixed(2)} s |`);
    rows.push(clientRow('go', goSeconds, 'go'));
    const composerSeconds = has('composer')
      ? await composerPublishAndInstall(anvil, fs.mkdtempSync(path.join(work, 'composer-')))
      : null;
    if (composerSeconds !== null)
      console.log(`| composer: upload + composer require | ${composerSeconds.toFixed(2)} s |`);
    rows.push(clientRow('composer', composerSeconds, 'composer'));

    const registry = (type: string) => `${anvil.base}/api/packages/${anvil.owner}/${type}`;
    // What this run's machine allows a registry request at all: a document with no rows behind it.
    const ceiling = await autocannonRps(`${registry('composer')}/packages.json`, anvil.token);
    console.log(`| Composer packages.json (no rows read: this run's ceiling) | ${ceiling.toFixed(0)} req/s |`);
    rows.push({
      name: "Composer packages.json (no rows read: this run's ceiling)",
      measured: `${ceiling.toFixed(0)} req/s`,
      goal: 'reported',
      met: true,
    });
    rows.push(
      ...(await indexRows(
        'Go @v/list',
        anvil,
        (name, count) =>
          seedVersions(
            anvil.dbFile,
            anvil.owner,
            'go',
            `example.com/${name}`,
            count,
            (i) => `v1.${i}.0`,
            () => JSON.stringify({ goMod: 'module example.com/bench\n' }),
            (version) => `${version}.zip`,
          ),
        (name) => `${registry('go')}/example.com/${name}/@v/list`,
      )),
    );
    const composerMetadata = JSON.stringify({
      type: 'library',
      description: 'A package seeded for the bench',
      license: ['MIT'],
      authors: [{ name: 'Bench', email: 'bench@example.com' }],
      require: { php: '>=8.1', 'psr/log': '^3.0' },
      autoload: { 'psr-4': { 'Bench\\': 'src/' } },
    });
    rows.push(
      ...(await indexRows(
        'Composer p2 metadata',
        anvil,
        (name, count) =>
          seedVersions(
            anvil.dbFile,
            anvil.owner,
            'composer',
            `bench/${name}`,
            count,
            (i) => `1.${i}.0`,
            () => composerMetadata,
            (version) => `bench-${name}.${version}.zip`,
          ),
        (name) => `${registry('composer')}/p2/bench/${name}.json`,
      )),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
