// Reads info/index.json and info/about.json out of a Conda package as it streams in: a .tar.bz2 is a bzip2 tar
// whose info/ files come first; a .conda is a zip holding `info-*.tar.zst` beside the payload's `pkg-*.tar.zst`
// (conda-package-handling's format). Only what the index needs is decompressed, within a budget, so a bomb, an
// entry that escapes the archive, or metadata past 1 MiB answers 400 and nothing is kept.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { Decompress } from 'fzstd';
import tar from 'tar-stream';
import bunzip2 from 'unbzip2-stream';
import type unzipper from 'unzipper';
import { BadRequestError } from '../../domain/errors.ts';
import { type CondaPackage, readCondaMetadata } from './conda-metadata.ts';

export type CondaFormat = 'tar.bz2' | 'conda';

/** Decompressed bytes read looking for info/index.json; a package whose info/ is not within them is refused. */
const INSPECT_BUDGET = 64 * 1024 * 1024;
const MAX_METADATA = 1024 * 1024;

export function condaFormatOf(fileName: string): CondaFormat | null {
  if (fileName.endsWith('.tar.bz2')) return 'tar.bz2';
  if (fileName.endsWith('.conda')) return 'conda';
  return null;
}

const malformed = (why: string) => new BadRequestError(`the package is not a valid Conda archive: ${why}`);

function ignore(): void {}

/** A name inside an archive that is absolute or climbs out of it. */
function escapes(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || name.split('/').includes('..');
}

/** Passes bytes on until `budget` of them went through, then fails: a decompression bomb. */
function budgeted(budget: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > budget) done(malformed('it decompresses past the size allowed for its metadata'));
      else done(null, chunk);
    },
  });
}

/** zstd as a stream (fzstd decodes block by block as bytes come). */
function unzstd(): Transform {
  const decoder = new Decompress();
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        decoder.push(chunk);
        done();
      } catch {
        done(malformed('broken zstd data'));
      }
    },
    flush(done: TransformCallback) {
      try {
        decoder.push(new Uint8Array(0), true);
        done();
      } catch {
        done(malformed('broken zstd data'));
      }
    },
  });
  decoder.ondata = (data) => transform.push(Buffer.from(data));
  return transform;
}

async function readSmall(entry: Readable, size: number, name: string): Promise<string> {
  if (size > MAX_METADATA) throw malformed(`${name} is larger than ${MAX_METADATA} bytes`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Finds info/index.json and info/about.json in a tar stream; stops at the first payload entry after them. */
async function readInfoFromTar(tarBytes: Readable): Promise<{ index?: string; about?: string }> {
  const extract = tar.extract();
  tarBytes.on('error', (error) => extract.destroy(error));
  tarBytes.pipe(extract);
  const found: { index?: string; about?: string } = {};
  try {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      if (escapes(name)) throw malformed(`the entry "${name}" escapes the archive`);
      if (type === 'file' && name === 'info/index.json') found.index = await readSmall(entry, size, name);
      else if (type === 'file' && name === 'info/about.json') found.about = await readSmall(entry, size, name);
      else entry.resume();
      if (found.index !== undefined && (found.about !== undefined || !name.startsWith('info/'))) break;
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw malformed('broken tar data');
  } finally {
    tarBytes.unpipe(extract);
    extract.destroy();
  }
  return found;
}

async function fromTarBz2(body: Readable, budget: number): Promise<{ index?: string; about?: string }> {
  const decompressed = body.pipe(bunzip2() as unknown as Transform);
  const limited = budgeted(budget);
  decompressed.on('error', () => limited.destroy(malformed('broken bzip2 data')));
  limited.on('error', ignore);
  try {
    return await readInfoFromTar(decompressed.pipe(limited));
  } finally {
    body.unpipe();
    decompressed.destroy();
  }
}

async function fromConda(body: Readable, budget: number): Promise<{ index?: string; about?: string }> {
  const zip = body.pipe((require('unzipper') as typeof unzipper).Parse({ forceStream: true }));
  try {
    for await (const item of zip) {
      const entry = item as unzipper.Entry;
      if (escapes(entry.path)) throw malformed(`the entry "${entry.path}" escapes the archive`);
      if (entry.type === 'File' && /^info-[^/]+\.tar\.zst$/.test(entry.path)) {
        const decompressed = entry.pipe(unzstd());
        const limited = budgeted(budget);
        decompressed.on('error', (error) => limited.destroy(error));
        limited.on('error', ignore);
        return await readInfoFromTar(decompressed.pipe(limited));
      }
      entry.autodrain();
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw malformed('broken zip data');
  } finally {
    body.unpipe();
    zip.destroy();
  }
  throw malformed('it has no info-*.tar.zst');
}

/**
 * The package a Conda archive describes; 400 for anything that is not a well-formed one. `budget`: the decompressed
 * bytes read looking for info/index.json (a test's smaller one spares decoding 64 MiB of bzip2 in JavaScript).
 */
export async function readCondaArchive(
  format: CondaFormat,
  body: Readable,
  budget = INSPECT_BUDGET,
): Promise<CondaPackage> {
  const { index, about } = format === 'conda' ? await fromConda(body, budget) : await fromTarBz2(body, budget);
  if (index === undefined) throw malformed('it has no info/index.json');
  return readCondaMetadata(index, about, format === 'conda');
}
