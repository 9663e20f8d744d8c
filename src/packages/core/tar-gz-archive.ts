// A gzip-compressed tar archive uploaded into a registry (a Helm chart, a pub package), read for one small file of
// metadata, and refused with 400 when it is malformed or hostile: an entry name that leaves the archive (absolute,
// `..`), the file larger than asked for, or more inflated bytes before it than any package has (a gzip bomb).
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';

export interface TarSearch {
  /** Whether this entry (its `/`-separated name) is the file wanted. */
  wanted(name: string): boolean;
  /** What the file is called in a refusal. */
  what: string;
  maxBytes: number;
  /** Inflated bytes read before giving up. */
  maxScannedBytes: number;
}

function leavesArchive(name: string): boolean {
  return name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split(/[/\\]/).includes('..');
}

/** The wanted file's bytes, or null when the archive has none; a malformed or hostile archive answers 400. */
export async function readFromTarGz(path: string, search: TarSearch): Promise<Buffer | null> {
  let scanned = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      scanned += chunk.length;
      if (scanned > search.maxScannedBytes) done(new BadRequestError('the archive inflates past what a package holds'));
      else done(null, chunk);
    },
  });
  const source = createReadStream(path);
  const gunzip = createGunzip();
  const extract = tar.extract();
  const streams: { on(event: 'error', listener: (error: Error) => void): unknown; destroy(): unknown }[] = [
    source,
    gunzip,
    bounded,
    extract,
  ];
  // A failure anywhere ends the entries; later errors of streams being torn down are of no interest.
  let failure: unknown;
  for (const stream of streams) {
    stream.on('error', (error) => {
      failure ??= error;
      extract.destroy(error);
    });
  }
  source.pipe(gunzip).pipe(bounded).pipe(extract);
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      if (leavesArchive(name)) throw new BadRequestError(`the archive has an entry outside it: ${name}`);
      if (type !== 'file' || !search.wanted(name)) {
        entry.resume();
        continue;
      }
      if ((size ?? 0) > search.maxBytes) {
        throw new BadRequestError(`${search.what} is too large: at most ${search.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }
    if (failure) throw failure;
    return null;
  } catch (error) {
    const cause = failure ?? error;
    if (cause instanceof BadRequestError) throw cause;
    if (error instanceof BadRequestError) throw error;
    throw new BadRequestError(`the archive is not a valid .tar.gz file: ${(cause as Error).message}`);
  } finally {
    for (const stream of streams) stream.destroy();
  }
}
