// Zip archives for the registry tests (Go module zips, Composer archives), and the two hostile edits of one: an
// entry name that climbs out (`..`), and central directory sizes that declare far more bytes than are there.
import yazl from 'yazl';

/** A zip of the given files (path → content), deflated. */
export function makeZip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { mtime: new Date(0) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Every occurrence of `from` in the zip's bytes replaced by `to` (same length): names the writer would refuse. */
export function renameInZip(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('the replacement must keep the length');
  return Buffer.from(zip.toString('latin1').split(from).join(to), 'latin1');
}

/** Each central directory entry's uncompressed size set to `size`: a zip bomb as the directory declares it. */
export function declareSizes(zip: Buffer, size: number): Buffer {
  const copy = Buffer.from(zip);
  for (let at = 0; at + 46 <= copy.length; at++) {
    if (copy.readUInt32LE(at) === 0x02014b50) copy.writeUInt32LE(size, at + 24);
  }
  return copy;
}
