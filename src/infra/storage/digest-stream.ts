// A pass-through stream that counts and hashes what flows through it (md5, sha1, sha256, sha512 at once, as
// package registries report them, or the subset asked for), stops the flow past a byte limit and lets a budget (a
// quota reservation) admit bytes before they go on.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { PayloadTooLargeError } from '../../domain/errors.ts';
import { type BlobDigests, type ByteBudget, DIGEST_ALGORITHMS, type DigestAlgorithm } from './blob-store.ts';

export class DigestStream extends Transform {
  // Not named `size`: an S3 upload (lib-storage) reads a body's `size` as its announced length.
  private received = 0;
  private readonly hashes: [DigestAlgorithm, Hash][];

  constructor(
    private readonly maxBytes = Infinity,
    private readonly budget?: ByteBudget,
    algorithms: readonly DigestAlgorithm[] = DIGEST_ALGORITHMS,
  ) {
    super();
    const wanted = new Set<DigestAlgorithm>([...algorithms, 'sha256']);
    this.hashes = DIGEST_ALGORITHMS.filter((algorithm) => wanted.has(algorithm)).map((algorithm) => [
      algorithm,
      createHash(algorithm),
    ]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.maxBytes)
      return callback(new PayloadTooLargeError(`the file is too large: at most ${this.maxBytes} bytes`));
    const pass = () => {
      for (const [, hash] of this.hashes) hash.update(chunk);
      callback(null, chunk);
    };
    let admitted: void | Promise<void>;
    try {
      admitted = this.budget?.admit(this.received);
    } catch (error) {
      return callback(error as Error);
    }
    // Most chunks fit what was admitted before: only a growth waits (a database round trip).
    if (admitted) admitted.then(pass, (error: Error) => callback(error));
    else pass();
  }

  /** The digests of everything that passed (empty for an algorithm not asked for); call once the stream has ended. */
  digests(): BlobDigests {
    const digests: BlobDigests = { size: this.received, md5: '', sha1: '', sha256: '', sha512: '' };
    for (const [algorithm, hash] of this.hashes) digests[algorithm] = hash.digest('hex');
    return digests;
  }
}
