// A gzip-compressed tar archive uploaded into a registry (a Helm chart, a pub package), read for one small file of
// metadata with the checks of tar-entries.ts: a malformed or hostile archive, the file larger than asked for, or
// more inflated bytes before it than any package has (a gzip bomb) answers 400.
import { createReadStream } from 'node:fs';
import { BadRequestError } from '../../domain/errors.ts';
import { tarEntries } from './tar-entries.ts';

export interface TarSearch {
  /** Whether this entry (its `/`-separated name) is the file wanted. */
  wanted(name: string): boolean;
  /** What the file is called in a refusal. */
  what: string;
  maxBytes: number;
  /** Inflated bytes read before giving up. */
  maxScannedBytes: number;
}

/** The wanted file's bytes, or null when the archive has none; a malformed or hostile archive answers 400. */
export async function readFromTarGz(path: string, search: TarSearch): Promise<Buffer | null> {
  const entries = tarEntries(createReadStream(path), {
    gzipped: true,
    maxUnpackedBytes: () => search.maxScannedBytes,
    refuse: (why) => new BadRequestError(`the archive is not a valid .tar.gz file: ${why}`),
  });
  for await (const { header, body } of entries) {
    if (header.type !== 'file' || !search.wanted(header.name)) continue;
    if ((header.size ?? 0) > search.maxBytes) {
      throw new BadRequestError(`${search.what} is too large: at most ${search.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  return null;
}
