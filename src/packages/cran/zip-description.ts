// The DESCRIPTION of an R package built as a zip (Windows binaries). A zip is read from its central directory at
// the end, so the upload is spooled to a private temporary file as it streams in, then opened with yauzl, which
// refuses entries with absolute or climbing paths; an archive claiming to unpack far beyond its size (a zip bomb)
// is refused before anything is unpacked. The file is removed whatever happens.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { BadRequestError } from '../../domain/errors.ts';
import { readEntry } from '../core/archive-scan.ts';
import { type CranDescription, parseDescription } from './description.ts';

/** Unpacked bytes may pass this only within BOMB_RATIO times the archive's size. */
const FREE_UNPACKED_BYTES = 64 * 1024 * 1024;
const BOMB_RATIO = 100;

const open = promisify(yauzl.open) as (file: string, options: yauzl.Options) => Promise<yauzl.ZipFile>;
const bad = (message: string) => new BadRequestError(`invalid R package: ${message}`);

function entries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  return (async function* () {
    for (;;) {
      const next = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (entry: yauzl.Entry) => settle(() => resolve(entry));
        const onEnd = () => settle(() => resolve(null));
        const onError = (error: Error) => settle(() => reject(error));
        const settle = (done: () => void) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          done();
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!next) return;
      yield next;
    }
  })();
}

async function findDescription(file: string, maxBytes: number): Promise<CranDescription | undefined> {
  const zip = await open(file, { lazyEntries: true, autoClose: false });
  try {
    const size = (await fs.promises.stat(file)).size;
    let unpacked = 0;
    let found: CranDescription | undefined;
    for await (const entry of entries(zip)) {
      unpacked += entry.uncompressedSize;
      if (unpacked > FREE_UNPACKED_BYTES && unpacked > size * BOMB_RATIO)
        throw bad('it unpacks to far more than its size');
      const parts = entry.fileName.split('/');
      if (parts.length !== 2 || parts[1] !== 'DESCRIPTION') continue;
      if (found) throw bad('two DESCRIPTION files');
      const stream = await promisify(zip.openReadStream.bind(zip))(entry);
      found = parseDescription((await readEntry(stream, maxBytes, 'DESCRIPTION')).toString('utf8'));
    }
    return found;
  } finally {
    zip.close();
  }
}

export async function readZipDescription(body: Readable, maxBytes: number): Promise<CranDescription | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'anvil-cran-'));
  try {
    const file = path.join(dir, 'package.zip');
    await pipeline(body, fs.createWriteStream(file, { mode: 0o600 }));
    return await findDescription(file, maxBytes);
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw bad(`the zip is malformed: ${(error as Error).message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
