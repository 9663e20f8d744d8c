import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../src/domain/errors.ts';
import { tarEntries, type TarReading } from '../../src/packages/core/tar-entries.ts';

type Item = { name: string; body?: string | Buffer; type?: 'file' | 'symlink' | 'link'; linkname?: string };

async function tarOf(items: Item[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const item of items) {
    const { body, ...header } = item;
    pack.entry(header, body ?? '');
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const reading = (overrides: Partial<TarReading> = {}): TarReading => ({
  gzipped: false,
  maxUnpackedBytes: () => Number.POSITIVE_INFINITY,
  refuse: (why) => new BadRequestError(why),
  ...overrides,
});

async function read(bytes: Buffer, rules: TarReading): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of tarEntries(Readable.from([bytes]), rules)) paths.push(entry.path);
  return paths;
}

describe('tarEntries', () => {
  it('reads the entries of a plain and of a gzip-compressed archive, paths without ./', async () => {
    const archive = await tarOf([
      { name: './a/b.txt', body: 'b' },
      { name: 'c.txt', body: 'c' },
    ]);
    expect(await read(archive, reading())).toEqual(['a/b.txt', 'c.txt']);
    expect(await read(gzipSync(archive), reading({ gzipped: true }))).toEqual(['a/b.txt', 'c.txt']);
  });

  it.each([
    ['an absolute path', [{ name: '/etc/passwd', body: 'x' }]],
    ['a path that climbs out', [{ name: 'a/../../x', body: 'x' }]],
    ['a symbolic link pointing out', [{ name: 'a/l', type: 'symlink' as const, linkname: '../../x' }]],
    ['an absolute symbolic link', [{ name: 'l', type: 'symlink' as const, linkname: '/etc' }]],
  ])('refuses %s', async (_label, items) => {
    await expect(read(await tarOf(items), reading())).rejects.toBeInstanceOf(BadRequestError);
  });

  it('takes a symbolic link that stays inside', async () => {
    const archive = await tarOf([{ name: 'a/b/l', type: 'symlink', linkname: '../c' }]);
    expect(await read(archive, reading())).toEqual(['a/b/l']);
  });

  it('stops a gzip bomb at the bound', async () => {
    const bomb = gzipSync(await tarOf([{ name: 'zeros', body: Buffer.alloc(8 * 1024 * 1024) }]));
    const rules = reading({ gzipped: true, maxUnpackedBytes: (packed) => packed * 100 });
    await expect(read(bomb, rules)).rejects.toThrow('unpacks to far more');
  });

  it('refuses what is not a tar archive', async () => {
    await expect(read(Buffer.from('not a gzip stream at all'), reading({ gzipped: true }))).rejects.toThrow(
      'not a gzip-compressed tar archive',
    );
  });
});
