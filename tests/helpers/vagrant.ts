// Helpers for the Vagrant registry tests: .box archives as `vagrant package` makes them (a gzip-compressed tar
// with metadata.json naming the provider, an info.json and the provider's files).
import zlib from 'node:zlib';
import tar from 'tar-stream';

export const vagrantRegistry = (owner: string) => `/api/packages/${owner}/vagrant`;

export interface BoxEntry {
  name: string;
  body?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink';
  linkname?: string;
}

export async function boxArchive(
  provider = 'virtualbox',
  info: Record<string, string> = { description: 'A test box', website: 'https://example.com/box' },
  extra: BoxEntry[] = [],
  gzip = true,
): Promise<Buffer> {
  const pack = tar.pack();
  const entries: BoxEntry[] = [
    { name: './metadata.json', body: JSON.stringify({ provider }) },
    { name: './info.json', body: JSON.stringify(info) },
    { name: './box.ovf', body: '<Envelope/>' },
    { name: './box-disk001.vmdk', body: Buffer.alloc(4096, 7) },
    ...extra,
  ];
  for (const entry of entries) {
    const { body, ...header } = entry;
    pack.entry({ type: 'file', ...header }, entry.type === 'symlink' || entry.type === 'directory' ? undefined : body);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const archive = Buffer.concat(chunks);
  return gzip ? zlib.gzipSync(archive) : archive;
}
