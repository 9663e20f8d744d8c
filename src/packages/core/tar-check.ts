// An uploaded tar archive (gzip-compressed, or either way) checked as it streams into the store, for registries
// whose files are archives a client unpacks (Cargo's .crate, Vagrant's .box): every entry's path stays inside the
// archive, the registry's own rules hold for each entry and for the whole, and the unpacked size is bounded, so a
// bomb stops at the bound. The bytes pass on unchanged; an archive that fails a check fails the stream with a
// 400 (kept in `failure`, since the store reports a failed source as a body cut short), so the publish keeps
// nothing. The stream ends only once the check has passed.
import { PassThrough, pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';

export interface TarRules {
  /** What the archive is called in messages (`crate`, `box`). */
  readonly what: string;
  /** `optional`: a plain tar is taken too (told apart by gzip's magic bytes). */
  readonly gzip: 'required' | 'optional';
  /** Refused past this many unpacked bytes of entries. */
  readonly maxUnpackedBytes: number;
  /** Checks an entry (its path already known safe); may read its data. Throws a BadRequestError to refuse. */
  entry(header: tar.Headers, path: string, data: Readable): void | Promise<void>;
  /** After the last entry. */
  end(): void;
}

const MAX_ENTRIES = 100_000;
/** Headers, padding and PAX records on top of the entries' own bytes. */
const TAR_OVERHEAD = MAX_ENTRIES * 1024;

/** The entry's path without `./` segments; a path that is absolute or climbs out with `..` is refused. */
export function entryPath(name: string, refuse: (why: string) => Error): string {
  if (name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name))
    throw refuse(`the entry "${name}" is absolute`);
  const segments = name.split('/').filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) throw refuse(`the entry "${name}" leaves the archive`);
  return segments.join('/');
}

function unpackedBound(maxBytes: number, refuse: () => Error): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes + TAR_OVERHEAD) callback(refuse());
      else callback(null, chunk);
    },
  });
}

async function inspect(input: PassThrough, rules: TarRules, gzipped: boolean): Promise<void> {
  const bad = (why: string) => new BadRequestError(`invalid ${rules.what}: ${why}`);
  const tooLarge = () => bad('it unpacks past the size limit');
  const extract = tar.extract();
  const stages = [
    input,
    ...(gzipped ? [createGunzip()] : []),
    unpackedBound(rules.maxUnpackedBytes, tooLarge),
    extract,
  ] as const;
  const unpacking = new Promise<void>((resolve, reject) =>
    pipeline([...stages], (error) => (error ? reject(error) : resolve())),
  );
  unpacking.catch(() => undefined);
  let entries = 0;
  let declared = 0;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      entries += 1;
      declared += header.size ?? 0;
      if (entries > MAX_ENTRIES) throw bad(`it holds more than ${MAX_ENTRIES} entries`);
      if (declared > rules.maxUnpackedBytes) throw tooLarge();
      await rules.entry(header, entryPath(header.name, bad), entry);
      entry.resume();
    }
    await unpacking;
  } catch (error) {
    input.destroy();
    if (error instanceof BadRequestError) throw error;
    throw bad(`it is not a ${rules.gzip === 'required' ? 'gzip-compressed ' : ''}tar archive`);
  }
  rules.end();
}

export class TarArchiveCheck extends Transform {
  private readonly input = new PassThrough();
  private checked: Promise<void> | null = null;
  private settled = false;
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
    const checked = inspect(this.input, this.rules, gzipped || this.rules.gzip === 'required');
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
