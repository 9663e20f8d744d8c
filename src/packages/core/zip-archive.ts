// A zip archive uploaded into a registry (a .nupkg, a .snupkg), read for the little a registry needs, and refused
// with 400 when it is malformed or hostile: names that leave the archive (absolute, `..`), more entries than any
// package has, an entry larger than asked for, or one that inflates past the size its directory declares.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { BadRequestError } from '../../domain/errors.ts';

const MAX_ENTRIES = 100_000;

export interface ZipEntry {
  /** The entry's path inside the archive, `/`-separated. */
  readonly name: string;
  readonly size: number;
}

const refused = (error: unknown) =>
  new BadRequestError(`the archive is not a valid zip file: ${(error as Error).message}`);

export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly found: ReadonlyMap<ZipEntry, yauzl.Entry>,
  ) {}

  /** Opens the archive at the path and reads its directory. Close it once done. */
  static async open(path: string): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
    } catch (error) {
      throw refused(error);
    }
    try {
      if (zip.entryCount > MAX_ENTRIES) throw new BadRequestError('the archive has too many entries');
      const found = new Map<ZipEntry, yauzl.Entry>();
      for await (const entry of zip.eachEntry()) {
        found.set({ name: entry.fileName, size: entry.uncompressedSize }, entry);
      }
      return new ZipArchive(zip, found);
    } catch (error) {
      zip.close();
      throw error instanceof BadRequestError ? error : refused(error);
    }
  }

  get entries(): ZipEntry[] {
    return [...this.found.keys()].filter((entry) => !entry.name.endsWith('/'));
  }

  /** The entry's bytes; one declared larger than `maxBytes`, or inflating past what it declares, answers 400. */
  async read(entry: ZipEntry, maxBytes: number, what = entry.name): Promise<Buffer> {
    if (entry.size > maxBytes) throw new BadRequestError(`${what} is too large: at most ${maxBytes} bytes`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(entry)) chunks.push(chunk as Buffer);
    } catch (error) {
      throw refused(error);
    }
    return Buffer.concat(chunks);
  }

  private async stream(entry: ZipEntry): Promise<Readable> {
    const found = this.found.get(entry);
    if (!found) throw new BadRequestError(`${entry.name} is not in the archive`);
    return this.zip.openReadStreamPromise(found);
  }

  close(): void {
    this.zip.close();
  }
}
