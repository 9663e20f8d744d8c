// An uploaded tar archive (gzip-compressed, or either way) checked as it streams into the store, for registries
// whose files are archives a client unpacks (Cargo's .crate, Vagrant's .box): every entry's path stays inside the
// archive, the registry's own rules hold for each entry and for the whole, and the unpacked size is bounded, so a
// bomb stops at the bound. The bytes pass on unchanged; an archive that fails a check fails the stream with a
// 400 (kept in `failure`, since the store reports a failed source as a body cut short), so the publish keeps
// nothing. The stream ends only once the check has passed.
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import type tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { tarEntries } from './tar-entries.ts';

export interface TarRules {
  /** What the archive is called in messages (`crate`, `box`). */
  readonly what: string;
  /** `optional`: a plain tar is taken too (told apart by gzip's magic bytes). */
  readonly gzip: 'required' | 'optional';
  /** Refused past this many unpacked bytes of entries, when `compressed` bytes of the upload have come. */
  maxUnpackedBytes(compressed: number): number;
  /** Checks an entry (its path already known safe); may read its data. Throws a BadRequestError to refuse. */
  entry(header: tar.Headers, path: string, data: Readable): void | Promise<void>;
  /** After the last entry. */
  end(): void;
}

/** Headers, padding and PAX records on top of the entries' own bytes. */
const TAR_OVERHEAD = 100_000 * 1024;

async function inspect(input: PassThrough, rules: TarRules, gzipped: boolean, compressed: () => number) {
  const bad = (why: string) => new BadRequestError(`invalid ${rules.what}: ${why}`);
  const entries = tarEntries(input, {
    gzipped,
    maxUnpackedBytes: () => rules.maxUnpackedBytes(compressed()) + TAR_OVERHEAD,
    refuse: bad,
  });
  let declared = 0;
  try {
    for await (const { path, header, body } of entries) {
      // The sizes the headers declare tell a bomb before its bytes are inflated.
      declared += header.size ?? 0;
      if (declared > rules.maxUnpackedBytes(compressed())) throw bad('it unpacks past the size limit');
      await rules.entry(header, path, body);
    }
  } catch (error) {
    input.destroy();
    throw error;
  }
  rules.end();
}

export class TarArchiveCheck extends Transform {
  private readonly input = new PassThrough();
  private checked: Promise<void> | null = null;
  private settled = false;
  private received = 0;
  /** Why the stream failed, when it did. */
  failure: Error | null = null;
  /** The chunk held back while the check catches up. */
  private waiting: (() => void) | null = null;

  constructor(private readonly rules: TarRules) {
    super();
    this.input.on('drain', () => this.release());
  }

  /** The check starts with the first bytes, which tell a compressed archive from a plain one. */
  private start(first: Buffer): Promise<void> {
    const gzipped = first[0] === 0x1f && first[1] === 0x8b;
    const gzip = gzipped || this.rules.gzip === 'required';
    const checked = inspect(this.input, this.rules, gzip, () => this.received);
    checked.then(
      () => {
        this.settled = true;
        this.release();
      },
      (error: unknown) => {
        this.settled = true;
        this.destroy(error as Error);
      },
    );
    return checked;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.failure ??= error;
    this.input.destroy();
    callback(error);
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    this.checked ??= this.start(chunk);
    // Once the check is over, what follows (padding past the archive's end) needs no reading.
    if (this.settled || this.input.write(chunk)) callback(null, chunk);
    else this.waiting = () => callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.checked ??= this.start(Buffer.alloc(0));
    this.input.end();
    this.checked.then(() => callback(), callback);
  }
}
