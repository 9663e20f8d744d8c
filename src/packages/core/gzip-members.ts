// The members of a concatenation of gzip streams (RFC 1952), as an Alpine package or index is laid out: each
// member's compressed bytes (what a signature or checksum covers) and its content, decompressed within a bound.
import { inflateRawSync } from 'node:zlib';
import { BadRequestError } from '../../domain/errors.ts';

export interface GzipMember {
  /** The member's bytes as stored: header, deflate data and trailer. */
  raw: Buffer;
  content: Buffer;
}

const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const TRAILER = 8;

const malformed = () => new BadRequestError('the package is not a valid gzip stream');

function headerLength(data: Buffer, start: number): number {
  if (data.length < start + 10 || data[start] !== 0x1f || data[start + 1] !== 0x8b || data[start + 2] !== 8)
    throw malformed();
  const flags = data[start + 3];
  let at = start + 10;
  if (flags & FEXTRA) {
    if (data.length < at + 2) throw malformed();
    at += 2 + data.readUInt16LE(at);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const end = data.indexOf(0, at);
    if (end < 0) throw malformed();
    at = end + 1;
  }
  if (flags & FHCRC) at += 2;
  if (at > data.length) throw malformed();
  return at - start;
}

/** The member that starts at `start`, its content at most `maxBytes` (more: 400). */
export function gzipMemberAt(data: Buffer, start: number, maxBytes: number): GzipMember {
  const header = headerLength(data, start);
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    inflated = inflateRawSync(data.subarray(start + header), {
      info: true,
      maxOutputLength: maxBytes + 1,
    }) as unknown as typeof inflated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new BadRequestError(`the package metadata unpacks to more than ${maxBytes} bytes`);
    throw malformed();
  }
  if (inflated.buffer.length > maxBytes)
    throw new BadRequestError(`the package metadata unpacks to more than ${maxBytes} bytes`);
  const end = start + header + inflated.engine.bytesWritten + TRAILER;
  if (end > data.length) throw malformed();
  return { raw: data.subarray(start, end), content: inflated.buffer };
}
