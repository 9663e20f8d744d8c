// FileSink: the stream's bytes in a new file, in order, and written chunks freed only when asked and only when a
// chunk is the whole of its buffer; releaseChunk never touches a slice of a shared buffer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileSink } from '../../src/infra/storage/file-sink.ts';
import { releaseChunk } from '../../src/infra/storage/release-chunk.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-file-sink-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Chunks of 64 KiB and odd sizes, each its own allocation, as a request body's are: over two megabytes of them. */
function chunks(): Buffer[] {
  const sizes = [...Array<number>(20).fill(65536), 3, 100_000, 1, ...Array<number>(20).fill(65536), 7];
  return sizes.map((size, n) => {
    const chunk = Buffer.allocUnsafeSlow(size);
    for (let i = 0; i < size; i++) chunk[i] = (i * 31 + n) & 0xff;
    return chunk;
  });
}

it('writes every chunk in order and frees the written ones when asked', async () => {
  const sent = chunks();
  const expected = Buffer.concat(sent);
  const file = path.join(dir, 'released');
  await pipeline(Readable.from(sent), new FileSink(file, { releaseChunks: true }));
  expect(fs.readFileSync(file).equals(expected)).toBe(true);
  expect(sent.every((chunk) => chunk.length === 0)).toBe(true);
});

it('leaves the chunks alone by default', async () => {
  const sent = chunks();
  const expected = Buffer.concat(sent);
  const file = path.join(dir, 'kept');
  await pipeline(Readable.from(sent), new FileSink(file));
  expect(fs.readFileSync(file).equals(expected)).toBe(true);
  expect(Buffer.concat(sent).equals(expected)).toBe(true);
});

it('refuses a file that exists, keeping it', async () => {
  const file = path.join(dir, 'taken');
  fs.writeFileSync(file, 'before');
  await expect(pipeline(Readable.from([Buffer.from('after')]), new FileSink(file))).rejects.toThrow(/EEXIST/);
  expect(fs.readFileSync(file, 'utf8')).toBe('before');
});

it('never frees a slice of a larger buffer', () => {
  const shared = Buffer.from('a pooled allocation shared with others');
  const slice = shared.subarray(2, 8);
  releaseChunk(slice);
  releaseChunk(Buffer.from('x'));
  expect(slice.toString()).toBe('pooled');
  expect(shared.toString()).toBe('a pooled allocation shared with others');
});
