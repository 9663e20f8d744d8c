// The decompression budget of a Conda package's metadata read, with a small budget: decoding the real one's 64 MiB of
// bzip2 in JavaScript took minutes on a loaded CI machine (the API test keeps a zstd bomb past the real budget).
import { Readable } from 'node:stream';
import { readCondaArchive } from '../../src/packages/conda/conda-archive.ts';
import { BadRequestError } from '../../src/domain/errors.ts';
import { condaTarBz2, condaV2 } from '../helpers/conda.ts';

const MIB = 1024 * 1024;
const bomb = { name: 'info/bomb', body: Buffer.alloc(3 * MIB) };

describe.each([
  ['a .tar.bz2', 'tar.bz2' as const, condaTarBz2],
  ['a .conda', 'conda' as const, condaV2],
])('%s with 3 MiB in front of its info files', (_label, format, make) => {
  it('is refused past a budget of 2 MiB', async () => {
    const bytes = await make({ name: 'bomb', version: '1', infoEntries: [bomb] });
    const error = await readCondaArchive(format, Readable.from([bytes]), 2 * MIB).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/decompresses past the size allowed/);
  });

  it('is read within a budget of 4 MiB', async () => {
    const bytes = await make({ name: 'bomb', version: '1', infoEntries: [bomb] });
    await expect(readCondaArchive(format, Readable.from([bytes]), 4 * MIB)).resolves.toEqual(
      expect.objectContaining({ name: 'bomb', version: '1' }),
    );
  });
});
