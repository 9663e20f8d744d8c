// `cli restore ARCHIVE`: lays a dump back into an empty data directory and an empty database, so that a server
// started there answers as the dumped one did. Every destination must be empty: a restore never merges into,
// or overwrites, an instance. When it fails half-way, what it wrote is removed again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type tar from 'tar-stream';
import { loadSettings, type Settings } from '../config/settings.ts';
import { databaseTarget } from '../infra/database/database.ts';
import { databaseNotEmpty, restoreDatabase } from '../infra/database/snapshot.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';
import { readArchive } from './archive.ts';
import {
  APP_INI_ENTRY,
  DATA_FOLDER,
  DATABASE_ENTRY,
  type DumpManifest,
  MANIFEST_ENTRY,
  PACKAGES_FOLDER,
  parseManifest,
  REPOSITORIES_FOLDER,
} from './dump-layout.ts';

export class RestoreRefusedError extends Error {}

export interface RestoreOptions {
  report?: (line: string) => void;
}

const PROVIDER_NAMES: Record<DatabaseTarget['provider'], string> = { sqlite: 'SQLite', postgresql: 'PostgreSQL' };

function isEmptyDirectory(dir: string): boolean {
  return !fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0);
}

function emptyDirectory(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** The entry's path below its folder, refused when it could leave it. */
function pathInside(root: string, relative: string, entryName: string): string {
  const resolvedRoot = path.resolve(root);
  const target = path.resolve(resolvedRoot, relative);
  if (
    relative.includes('\0') ||
    path.isAbsolute(relative) ||
    (target !== resolvedRoot && !target.startsWith(resolvedRoot + path.sep))
  ) {
    throw new Error(`the archive entry ${JSON.stringify(entryName)} points outside its folder`);
  }
  return target;
}

/** Where the instance described by the restored app.ini and the environment keeps each part. */
interface Destinations {
  settings: Settings;
  database: DatabaseTarget;
  folders: Record<string, string>;
}

async function checkDestinations(env: NodeJS.ProcessEnv, manifest: DumpManifest): Promise<Destinations> {
  const settings = loadSettings(env);
  const database = databaseTarget(settings);
  if (database.provider !== manifest.database) {
    throw new RestoreRefusedError(
      manifest.database === 'postgresql'
        ? 'this dump holds a PostgreSQL database: set DATABASE_URL to an empty PostgreSQL database to restore it'
        : `this dump holds a SQLite database: restore it without DATABASE_URL (the ${PROVIDER_NAMES[database.provider]} URL now set)`,
    );
  }
  const folders = {
    [REPOSITORIES_FOLDER]: settings.repository.ROOT,
    [PACKAGES_FOLDER]: settings.packages.PATH,
    [DATA_FOLDER]: settings.server.APP_DATA_PATH,
  };
  for (const [part, dir] of Object.entries(folders)) {
    if (part !== DATA_FOLDER && !isEmptyDirectory(dir))
      throw new RestoreRefusedError(`${dir} (where ${part} go) is not empty; restore needs an empty one`);
  }
  let busy: string | null;
  try {
    busy = await databaseNotEmpty(database);
  } catch (error) {
    throw new RestoreRefusedError(`cannot open the database to restore into: ${(error as Error).message}`);
  }
  if (busy) throw new RestoreRefusedError(`${busy}; restore needs an empty database`);
  return { settings, database, folders };
}

async function readAll(entry: tar.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function writeEntry(entry: tar.Entry, target: string): Promise<void> {
  const { type, mode } = entry.header;
  if (type === 'directory') {
    fs.mkdirSync(target, { recursive: true, mode: (mode ?? 0o755) & 0o777 });
    entry.resume();
    return;
  }
  if (type !== 'file')
    throw new Error(`the archive entry ${JSON.stringify(entry.header.name)} is a ${type}, which a dump never holds`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await pipeline(Readable.from(entry), fs.createWriteStream(target, { flags: 'wx', mode: (mode ?? 0o644) & 0o777 }));
}

export async function restoreInstance(
  archive: string,
  env: NodeJS.ProcessEnv,
  options: RestoreOptions = {},
): Promise<{ dataDir: string }> {
  const report = options.report ?? (() => undefined);
  if (!fs.existsSync(archive)) throw new RestoreRefusedError(`${archive} does not exist`);
  const dataDir = path.resolve(env.ANVIL_DATA_DIR ?? 'data');
  if (!isEmptyDirectory(dataDir))
    throw new RestoreRefusedError(
      `the data directory ${dataDir} is not empty; restore into an empty or new directory (set ANVIL_DATA_DIR)`,
    );

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-restore-'));
  let manifest: DumpManifest | null = null;
  let destinations: Destinations | null = null;
  let snapshot: string | null = null;
  try {
    for await (const entry of readArchive(archive)) {
      const name = entry.header.name.replace(/\/+$/, '');
      if (manifest === null) {
        if (name !== MANIFEST_ENTRY)
          throw new RestoreRefusedError(`${archive} is not an Anvil dump (it does not begin with ${MANIFEST_ENTRY})`);
        manifest = parseManifest((await readAll(entry)).toString('utf8'));
        report(
          `Restoring a ${PROVIDER_NAMES[manifest.database]} dump of Anvil ${manifest.anvilVersion} taken ${manifest.createdAt} into ${dataDir}…`,
        );
        continue;
      }
      // app.ini comes right after the manifest; the destinations are known once it is in place.
      if (destinations === null && name === APP_INI_ENTRY) {
        await writeEntry(entry, path.join(dataDir, APP_INI_ENTRY));
        continue;
      }
      destinations ??= await checkDestinations({ ...env, ANVIL_DATA_DIR: dataDir }, manifest);
      if (name === DATABASE_ENTRY[manifest.database]) {
        snapshot = path.join(work, name);
        await writeEntry(entry, snapshot);
        continue;
      }
      const slash = name.indexOf('/');
      const folder = slash < 0 ? name : name.slice(0, slash);
      const root = destinations.folders[folder];
      if (root === undefined)
        throw new Error(`the archive entry ${JSON.stringify(entry.header.name)} belongs nowhere in a dump`);
      await writeEntry(
        entry,
        slash < 0 ? path.resolve(root) : pathInside(root, name.slice(slash + 1), entry.header.name),
      );
    }
    if (manifest === null) throw new RestoreRefusedError(`${archive} is empty`);
    destinations ??= await checkDestinations({ ...env, ANVIL_DATA_DIR: dataDir }, manifest);
    if (snapshot === null) throw new Error('the archive holds no database');
    report(`Restoring the ${PROVIDER_NAMES[manifest.database]} database…`);
    await restoreDatabase(destinations.database, snapshot);
    report(
      `Restored. Start Anvil with ANVIL_DATA_DIR=${dataDir}${manifest.database === 'postgresql' ? ' and the same DATABASE_URL' : ''}.`,
    );
    return { dataDir };
  } catch (error) {
    // Everything written went into places found empty: emptying them again undoes the restore.
    if (destinations) {
      for (const dir of Object.values(destinations.folders)) emptyDirectory(dir);
      if (destinations.database.provider === 'sqlite') fs.rmSync(destinations.database.file, { force: true });
    }
    emptyDirectory(dataDir);
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
