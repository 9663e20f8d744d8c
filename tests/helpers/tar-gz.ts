// .tar.gz archives for the registry tests (Helm charts, pub packages), built with tar-stream and zlib.
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** A gzip-compressed tar of these files, in this order. */
export async function tarGz(files: Record<string, Buffer | string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) {
    pack.entry({ name, mode: 0o644 }, typeof content === 'string' ? Buffer.from(content) : content);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
