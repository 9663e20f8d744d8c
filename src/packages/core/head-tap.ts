// Passes a stream through unchanged and keeps its first bytes: a package's metadata sits at its start (a .deb's
// control member, an .apk's first gzip stream), so it can be read once the upload is stored, without reading the
// stored bytes back.
import { Transform, type TransformCallback } from 'node:stream';

export class HeadTap extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;

  constructor(private readonly limit: number) {
    super();
  }

  /** The first bytes of the stream, at most `limit`. */
  get head(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    done(null, chunk);
  }
}
