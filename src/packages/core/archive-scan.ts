// An uploaded tar archive (gzip-compressed or not) read as it streams, for the registries that find their metadata
// inside one (a .gem, an R source package), with the checks of tar-entries.ts; a gzip stream may unpack to
// BOMB_RATIO times what has been read of it (past a free allowance). Each refusal is a 400; nothing is written.
import type { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { tarEntries } from './tar-entries.ts';

export interface ScannedEntry {
  name: string;
  type: string;
  size: number;
}

export interface TarScan {
  gzipped: boolean;
  /** Called for each regular file; it may read the body (or not) and the rest is skipped. */
  visit?: (entry: ScannedEntry, body: Readable) => void | Promise<void>;
}

/** Unpacked bytes may pass this only within BOMB_RATIO times the packed bytes read so far. */
const FREE_UNPACKED_BYTES = 64 * 1024 * 1024;
const BOMB_RATIO = 100;

const bad = (message: string) => new BadRequestError(`the archive is refused: ${message}`);

/** Reads the whole archive; resolves once every entry has been seen. */
export async function scanTar(source: Readable, scan: TarScan): Promise<void> {
  const entries = tarEntries(source, {
    gzipped: scan.gzipped,
    maxUnpackedBytes: (packed) =>
      scan.gzipped ? Math.max(FREE_UNPACKED_BYTES, packed * BOMB_RATIO) : Number.POSITIVE_INFINITY,
    refuse: bad,
  });
  for await (const { header, body } of entries) {
    const type = header.type ?? 'file';
    if (type === 'file' && scan.visit) await scan.visit({ name: header.name, type, size: header.size ?? 0 }, body);
  }
}

/** An entry's bytes, at most `maxBytes` of them (400 past that). */
export async function readEntry(body: Readable, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BadRequestError(`${what} is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
