// `cli dump`: one archive of everything an instance keeps, taken while it serves (Forgejo: cmd/dump.go). The
// database snapshot comes first and the files after it, so whatever the snapshot names was on disk before the
// files were read: a repository or package made during the dump is at worst an unreferenced extra. (A deletion
// during the dump can still remove files the snapshot names; nothing short of stopping writes prevents that.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../config/settings.ts';
import { databaseTarget } from '../infra/database/database.ts';
import { snapshotDatabase } from '../infra/database/snapshot.ts';
import { ANVIL_VERSION } from '../lib/version.ts';
import { ArchiveWriter } from './archive.ts';
import {
  APP_INI_ENTRY,
  DATA_FOLDER,
  DATABASE_ENTRY,
  MANIFEST_ENTRY,
  newManifest,
  PACKAGES_FOLDER,
  REPOSITORIES_FOLDER,
} from './dump-layout.ts';
import { type TreeEntry, walkTree } from './tree-walk.ts';

export interface DumpOptions {
  /** Where the archive goes; an existing file is not overwritten. */
  file: string;
  /** Progress, one line at a time. */
  report?: (line: string) => void;
}

export function defaultDumpFile(now = new Date()): string {
  return `anvil-dump-${Math.floor(now.getTime() / 1000)}.tar.gz`;
}

/** Git's transient files inside a repository (`<owner>/<repo>.git/…`): locks, push quarantines, packs being written. */
function transientInRepositories(relative: string): boolean {
  const segments = relative.split('/');
  if (segments.length === 1) return segments[0] === '.staging';
  if (segments.length < 3) return false;
  const name = segments[segments.length - 1];
  if (name.endsWith('.lock')) return true;
  return segments[2] === 'objects' && segments.length > 3 && (name.startsWith('incoming-') || name.startsWith('tmp_'));
}

async function addTree(
  writer: ArchiveWriter,
  folder: string,
  root: string,
  skip: (entry: string, kind: TreeEntry['kind']) => boolean,
): Promise<number> {
  let files = 0;
  if (!fs.existsSync(root)) return files;
  const stats = fs.statSync(root);
  await writer.addDirectory(folder, { mode: stats.mode & 0o7777, mtime: stats.mtime });
  for await (const entry of walkTree(root, skip)) {
    const name = `${folder}/${entry.relative}`;
    if (entry.kind === 'file') {
      if (await writer.addFile(name, entry.absolute)) files++;
      continue;
    }
    let directory;
    try {
      directory = fs.statSync(entry.absolute);
    } catch {
      continue; // removed since it was listed
    }
    await writer.addDirectory(name, { mode: directory.mode & 0o7777, mtime: directory.mtime });
  }
  return files;
}

export async function dumpInstance(settings: Settings, options: DumpOptions): Promise<{ file: string }> {
  const report = options.report ?? (() => undefined);
  const target = databaseTarget(settings);
  const dataDir = settings.server.APP_DATA_PATH;
  const output = path.resolve(options.file);
  if (fs.existsSync(output)) throw new Error(`${output} exists; name another file with --file`);
  const draft = `${output}.partial`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-dump-'));
  try {
    report(`Dumping the ${target.provider} database…`);
    const snapshot = path.join(work, DATABASE_ENTRY[target.provider]);
    await snapshotDatabase(target, snapshot);

    const writer = new ArchiveWriter(fs.createWriteStream(draft, { flags: 'wx', mode: 0o600 }));
    try {
      const manifest = newManifest(ANVIL_VERSION, target.provider, new Date());
      await writer.addBuffer(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      const appIni = path.join(dataDir, 'app.ini');
      if (fs.existsSync(appIni)) await writer.addFile(APP_INI_ENTRY, appIni);
      await writer.addFile(DATABASE_ENTRY[target.provider], snapshot);

      report(`Dumping repositories from ${settings.repository.ROOT}…`);
      const repositoryFiles = await addTree(
        writer,
        REPOSITORIES_FOLDER,
        settings.repository.ROOT,
        transientInRepositories,
      );
      report(`Dumping package blobs from ${settings.packages.PATH}…`);
      const packageFiles = await addTree(
        writer,
        PACKAGES_FOLDER,
        settings.packages.PATH,
        (relative) => relative === 'tmp',
      );

      // The rest of the data directory: avatars, the generated secret key, … Left out: what has its own place in
      // the archive, the database files and the hooks Anvil writes again on first use.
      const excluded = new Set(
        [
          settings.repository.ROOT,
          settings.packages.PATH,
          appIni,
          path.join(dataDir, 'git-hooks'),
          output,
          draft,
          ...(target.provider === 'sqlite'
            ? ['', '-wal', '-shm', '-journal', '.migrate-lock'].map((suffix) => target.file + suffix)
            : []),
        ].map((file) => path.resolve(file)),
      );
      report(`Dumping the data directory ${dataDir}…`);
      const dataFiles = await addTree(writer, DATA_FOLDER, dataDir, (relative) =>
        excluded.has(path.resolve(dataDir, relative)),
      );
      await writer.finish();
      report(`${repositoryFiles} repository files, ${packageFiles} package files, ${dataFiles} other data files`);
    } catch (error) {
      writer.abort(error as Error);
      fs.rmSync(draft, { force: true });
      throw error;
    }
    fs.renameSync(draft, output);
    report(`Finished dumping in file ${output}`);
    return { file: output };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
