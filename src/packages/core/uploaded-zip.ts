// A zip archive a client uploaded, read defensively: a file that is no zip, an entry whose name is absolute or
// climbs out with `..` (yauzl refuses both), more entries or more declared bytes than the limits allow (a zip
// bomb), or an entry that inflates past its declared size (yauzl checks) is refused with 400 before anything is
// kept. Only small members are read, into memory, each within its own bound.
import yauzl from 'yauzl';
import { BadRequestError } from '../../domain/errors.ts';

export interface ZipLimits {
  /** At most this many entries. */
  maxEntries: number;
  /** At most this many bytes once inflated, all entries together (as the entries declare them). */
  maxTotalBytes: number;
}

export interface ZipMember {
  /** The path inside the archive, `/`-separated; directories end with `/`. */
  name: string;
  size: number;
}

const refused = (reason: string) => new BadRequestError(`the archive is refused: ${reason}`);

function asRefusal(error: unknown): Error {
  if (error instanceof BadRequestError) return error;
  return refused(error instanceof Error ? error.message : String(error));
}

export class UploadedZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  /** Opens the archive at `file` and reads its directory within the limits; 400 for anything amiss. */
  static async open(file: string, limits: ZipLimits): Promise<UploadedZip> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, { autoClose: false, strictFileNames: true, validateEntrySizes: true });
    } catch (error) {
      throw asRefusal(error);
    }
    try {
      if (zip.entryCount > limits.maxEntries) throw refused(`more than ${limits.maxEntries} entries`);
      const entries = new Map<string, yauzl.Entry>();
      let total = 0;
      for await (const entry of zip.eachEntry()) {
        total += entry.uncompressedSize;
        if (total > limits.maxTotalBytes) throw refused(`more than ${limits.maxTotalBytes} bytes once inflated`);
        if (entries.has(entry.fileName)) throw refused(`"${entry.fileName}" is in it twice`);
        entries.set(entry.fileName, entry);
      }
      return new UploadedZip(zip, entries);
    } catch (error) {
      zip.close();
      throw asRefusal(error);
    }
  }

  members(): ZipMember[] {
    return [...this.entries.values()].map((entry) => ({ name: entry.fileName, size: entry.uncompressedSize }));
  }

  /** The members that are files, not directories. */
  files(): ZipMember[] {
    return this.members().filter((member) => !member.name.endsWith('/'));
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** A member's bytes; one larger than `maxBytes` is refused with 400 (`tooLarge` says why). */
  async read(name: string, maxBytes: number, tooLarge = `${name} is larger than ${maxBytes} bytes`): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw refused(`${name} is missing`);
    if (entry.uncompressedSize > maxBytes) throw new BadRequestError(tooLarge);
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of await this.zip.openReadStreamPromise(entry)) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) throw new BadRequestError(tooLarge);
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    } catch (error) {
      throw asRefusal(error);
    }
  }

  close(): void {
    this.zip.close();
  }
}
