// An uploaded R package read as it streams in: a source package or a binary build as a gzipped tar (what
// `R CMD build` and `R CMD INSTALL --build` make), its `<name>/DESCRIPTION` parsed; paths are checked and bombs
// refused on the way (core/archive-scan.ts). A zip (a Windows build) is read from its central directory
// (zip-description.ts). Anything else, or a package without DESCRIPTION, answers 400.
import { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { readEntry, scanTar } from '../core/archive-scan.ts';
import { type CranDescription, parseDescription } from './description.ts';
import { readZipDescription } from './zip-description.ts';

/** A DESCRIPTION is a few kilobytes; a megabyte-sized one is refused. */
export const MAX_DESCRIPTION_BYTES = 1024 * 1024;

export interface InspectedPackage extends CranDescription {
  extension: '.tar.gz' | '.zip';
}

/** The first bytes of the stream, and the whole stream again (those bytes first). */
async function peek(body: Readable, count: number): Promise<{ head: Buffer; whole: Readable }> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const seen: Buffer[] = [];
  let size = 0;
  while (size < count) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    size += next.value.length;
  }
  async function* replay() {
    yield* seen;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(seen), whole: Readable.from(replay(), { objectMode: false }) };
}

async function readTarDescription(body: Readable): Promise<CranDescription | undefined> {
  let found: CranDescription | undefined;
  await scanTar(body, {
    gzipped: true,
    visit: async (entry, content) => {
      const parts = entry.name.replace(/\/$/, '').split('/');
      if (parts.length !== 2 || parts[1] !== 'DESCRIPTION') return;
      if (found) throw new BadRequestError('invalid R package: two DESCRIPTION files');
      found = parseDescription((await readEntry(content, MAX_DESCRIPTION_BYTES, 'DESCRIPTION')).toString('utf8'));
    },
  });
  return found;
}

export async function readRPackage(body: Readable): Promise<InspectedPackage> {
  const { head, whole } = await peek(body, 4);
  let found: CranDescription | undefined;
  let extension: InspectedPackage['extension'];
  if (head[0] === 0x1f && head[1] === 0x8b) {
    extension = '.tar.gz';
    found = await readTarDescription(whole);
  } else if (head.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1'))) {
    extension = '.zip';
    found = await readZipDescription(whole, MAX_DESCRIPTION_BYTES);
  } else {
    throw new BadRequestError('invalid R package: neither a .tar.gz nor a .zip');
  }
  if (!found) throw new BadRequestError('invalid R package: DESCRIPTION is missing');
  return { ...found, extension };
}
