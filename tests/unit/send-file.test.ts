// sendFile: the whole file or a range, through reused buffers, in order; a destination gone early fails it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { sendFile } from '../../src/infra/storage/send-file.ts';

let dir: string;
let file: string;
const MiB = 1024 * 1024;
// Past two buffers' worth, and not a multiple of one, so buffers are reused and the last chunk is short.
const bytes = Buffer.from(Array.from({ length: 3 * MiB + 12345 }, (_, i) => (i * 7 + (i >> 12)) & 0xff));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-send-file-'));
  file = path.join(dir, 'blob');
  fs.writeFileSync(file, bytes);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function collect(range?: { start: number; end: number }): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  // A slow reader, so later reads wait for earlier chunks to be taken.
  sink.on('data', (chunk: Buffer) => {
    chunks.push(Buffer.from(chunk));
    sink.pause();
    setImmediate(() => sink.resume());
  });
  const ended = new Promise((resolve) => sink.on('end', resolve));
  await sendFile(file, sink, range);
  await ended;
  return Buffer.concat(chunks);
}

it('sends the whole file, byte for byte', async () => {
  expect((await collect()).equals(bytes)).toBe(true);
});

it('sends an inclusive range across buffer boundaries', async () => {
  const range = { start: MiB - 3, end: 2 * MiB + 100 };
  expect((await collect(range)).equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
});

it('fails when the destination is destroyed mid-way', async () => {
  let taken = 0;
  const destination = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      taken += chunk.length;
      if (taken > MiB) {
        destination.destroy();
        return;
      }
      setImmediate(callback);
    },
  });
  await expect(sendFile(file, destination)).rejects.toThrow();
});

it('copies through a stream for a destination whose write drops its callback', async () => {
  const sink = new PassThrough();
  const plainWrite = sink.write.bind(sink);
  // As the compression library wraps a response: the callback is not passed on.
  sink.write = ((chunk: Buffer) => plainWrite(chunk)) as typeof sink.write;
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => sink.on('end', resolve));
  await sendFile(file, sink);
  await ended;
  expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
});

it('sends a small file, a small range of a large one and an empty file in one piece', async () => {
  const small = path.join(dir, 'small');
  fs.writeFileSync(small, bytes.subarray(0, 5000));
  const empty = path.join(dir, 'empty');
  fs.writeFileSync(empty, '');
  const sent = async (filePath: string, range?: { start: number; end: number }) => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    const ended = new Promise((resolve) => sink.on('end', resolve));
    await sendFile(filePath, sink, range);
    await ended;
    return { bytes: Buffer.concat(chunks), writes: chunks.length };
  };
  expect(await sent(small)).toEqual({ bytes: bytes.subarray(0, 5000), writes: 1 });
  expect(await sent(file, { start: 2 * MiB, end: 2 * MiB + 999 })).toEqual({
    bytes: bytes.subarray(2 * MiB, 2 * MiB + 1000),
    writes: 1,
  });
  expect(await sent(empty)).toEqual({ bytes: Buffer.alloc(0), writes: 0 });
});
