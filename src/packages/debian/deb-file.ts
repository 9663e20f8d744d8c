// Reads the control file of a .deb (deb(5)): an ar archive whose first members are debian-binary and
// control.tar[.gz|.xz|.zst]; the control file is the `control` entry of that tar. Only the start of the package is
// needed, so the caller hands the head of the upload; a control member that does not fit in it is refused.
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { type Compression, decompressBounded } from '../core/decompress.ts';

/** The most of a .deb read for its control member: what real packages need many times over. */
export const DEB_HEAD_BYTES = 4 * 1024 * 1024;
const MAX_CONTROL_TAR = 16 * 1024 * 1024;
const MAX_CONTROL_FILE = 1024 * 1024;

const AR_MAGIC = '!<arch>\n';
const AR_HEADER = 60;

const COMPRESSIONS: Record<string, Compression> = {
  'control.tar': 'none',
  'control.tar.gz': 'gzip',
  'control.tar.xz': 'xz',
  'control.tar.zst': 'zstd',
};

const invalid = (message: string) => new BadRequestError(message);

/** The control member of the ar archive in `head`, with its compression. */
function controlMember(head: Buffer): { data: Buffer; compression: Compression } {
  if (head.subarray(0, AR_MAGIC.length).toString('latin1') !== AR_MAGIC)
    throw invalid('the file is not a .deb package');
  let offset = AR_MAGIC.length;
  while (offset + AR_HEADER <= head.length) {
    const header = head.subarray(offset, offset + AR_HEADER);
    if (header.subarray(58, 60).toString('latin1') !== '`\n') throw invalid('the .deb package is malformed');
    const name = header.subarray(0, 16).toString('latin1').trim().replace(/\/$/, '');
    const size = Number(header.subarray(48, 58).toString('latin1').trim());
    if (!Number.isSafeInteger(size) || size < 0) throw invalid('the .deb package is malformed');
    const start = offset + AR_HEADER;
    if (name.startsWith('control.tar')) {
      const compression = COMPRESSIONS[name];
      if (!compression) throw invalid(`unsupported control member ${name}`);
      if (size > MAX_CONTROL_TAR || start + size > head.length) throw invalid('the control member is too large');
      return { data: head.subarray(start, start + size), compression };
    }
    if (name.startsWith('data.tar')) break;
    offset = start + size + (size % 2);
  }
  throw invalid('control file is missing');
}

/** The `control` entry of a tar, whatever its directory prefix (`./control`). */
async function controlEntry(tarBytes: Buffer): Promise<string> {
  const extract = tar.extract();
  Readable.from([tarBytes]).pipe(extract);
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^(\.\/)+/, '');
      if (entry.header.type !== 'file' || name !== 'control') {
        entry.resume();
        continue;
      }
      if ((entry.header.size ?? 0) > MAX_CONTROL_FILE) throw invalid('the control file is too large');
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      extract.destroy();
      return Buffer.concat(chunks).toString('utf8');
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw invalid('the control archive is malformed');
  }
  throw invalid('control file is missing');
}

/** The text of the .deb's control file, from the first bytes of the package. */
export async function readDebControl(head: Buffer): Promise<string> {
  const member = controlMember(head);
  return controlEntry(await decompressBounded(member.data, member.compression, MAX_CONTROL_TAR));
}
