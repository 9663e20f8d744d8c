// An .rpm upload read as it streams: its headers are read off the front of the body (they say where the package
// is filed before the blob store takes a byte), then the whole body, headers included, streams on to the store.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { rpmHeadersLength } from './rpm-header.ts';
import { parseRpmPackage, type RpmPackage } from './rpm-package.ts';

/** Headers larger than this are refused: a package's file list and changelog fit well within it. */
export const MAX_RPM_HEADERS = 32 * 1024 * 1024;

export interface PeekedRpm {
  pkg: RpmPackage;
  /** The whole upload again, from its first byte. */
  body: Readable;
}

/** Reads the body until its headers are in, parses them (400 when they are no rpm's) and gives the body back. */
export async function peekRpm(body: Readable, maxHeaders = MAX_RPM_HEADERS): Promise<PeekedRpm> {
  const chunks: Buffer[] = [];
  let read = 0;
  let needed: number | null = null;
  while (needed === null || read < needed) {
    const chunk = body.read() as Buffer | null;
    if (chunk === null) {
      if (body.readableEnded || body.destroyed) break;
      await Promise.race([once(body, 'readable'), once(body, 'end')]);
      continue;
    }
    chunks.push(chunk);
    read += chunk.length;
    if (needed === null) needed = rpmHeadersLength(Buffer.concat(chunks));
    if ((needed ?? read) > maxHeaders) throw new BadRequestError('the rpm package headers are too large');
  }
  const prefix = Buffer.concat(chunks);
  if (needed === null || prefix.length < needed) throw new BadRequestError('not a valid rpm package: it is cut short');
  const pkg = parseRpmPackage(prefix.subarray(0, needed));
  return { pkg, body: Readable.from(replay(prefix, body)) };
}

async function* replay(prefix: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield prefix;
  for await (const chunk of rest) yield chunk as Buffer;
}
