// Decompresses a package's metadata member (a .deb's control.tar.*, an Arch package's .PKGINFO…) within a bound:
// what would grow past it is refused as a bad upload (a decompression bomb) before it is held in memory.
import { gunzipSync } from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import { XzReadableStream } from 'xz-decompress';
import { BadRequestError } from '../../domain/errors.ts';

export type Compression = 'none' | 'gzip' | 'xz' | 'zstd';

const tooLarge = (maxBytes: number) =>
  new BadRequestError(`the package metadata unpacks to more than ${maxBytes} bytes`);
const corrupt = (format: Compression) => new BadRequestError(`the package metadata is not valid ${format} data`);

/** Collects chunks until the bound, then refuses. */
class BoundedSink {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) throw tooLarge(this.maxBytes);
    this.chunks.push(chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

async function unxz(data: Buffer, sink: BoundedSink): Promise<void> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const reader = new XzReadableStream(source).getReader();
  try {
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch {
        throw corrupt('xz');
      }
      if (read.done) return;
      sink.add(read.value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function unzstd(data: Buffer, sink: BoundedSink): void {
  const stream = new ZstdDecompress((chunk) => sink.add(chunk));
  try {
    stream.push(new Uint8Array(data), true);
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw corrupt('zstd');
  }
}

export async function decompressBounded(data: Buffer, format: Compression, maxBytes: number): Promise<Buffer> {
  const sink = new BoundedSink(maxBytes);
  switch (format) {
    case 'none':
      sink.add(data);
      break;
    case 'gzip':
      try {
        sink.add(gunzipSync(data, { maxOutputLength: maxBytes + 1 }));
      } catch (error) {
        if (error instanceof BadRequestError) throw error;
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes);
        throw corrupt('gzip');
      }
      break;
    case 'xz':
      await unxz(data, sink);
      break;
    case 'zstd':
      unzstd(data, sink);
      break;
  }
  return sink.bytes();
}
