// An .rpm upload read as it streams: its headers are read off the front of the body (they say where the package
// is filed before the blob store takes a byte, and the registry signs them), then the rest streams on to the store.
import { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { readChunk } from '../core/read-chunk.ts';
import { rpmHeadersLength } from './rpm-header.ts';
import { parseRpmPackage, type RpmPackage } from './rpm-package.ts';

/** Headers larger than this are refused: a package's file list and changelog fit well within it. */
export const MAX_RPM_HEADERS = 32 * 1024 * 1024;

export interface PeekedRpm {
  pkg: RpmPackage;
  /** The lead and both headers, as uploaded. */
  headers: Buffer;
  /** The bytes after the headers, still streaming. */
  rest: Readable;
}

/** Reads the body until its headers are in and parses them (400 when they are no rpm's); the rest stays unread. */
export async function peekRpm(body: Readable, maxHeaders = MAX_RPM_HEADERS): Promise<PeekedRpm> {
  const chunks: Buffer[] = [];
  let read = 0;
  let needed: number | null = null;
  while (needed === null || read < needed) {
    const chunk = await readChunk(body);
    if (chunk === null) break;
    chunks.push(chunk);
    read += chunk.length;
    if (needed === null) needed = rpmHeadersLength(Buffer.concat(chunks));
    if ((needed ?? read) > maxHeaders) throw new BadRequestError('the rpm package headers are too large');
  }
  const prefix = Buffer.concat(chunks);
  if (needed === null || prefix.length < needed) throw new BadRequestError('not a valid rpm package: it is cut short');
  const headers = prefix.subarray(0, needed);
  const pkg = parseRpmPackage(headers);
  return { pkg, headers, rest: Readable.from(replay(prefix.subarray(needed), body)) };
}

/** A stream of these first bytes, then the rest. */
export function prepend(first: Buffer, rest: Readable): Readable {
  return Readable.from(replay(first, rest));
}

async function* replay(prefix: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  if (prefix.length > 0) yield prefix;
  for await (const chunk of rest) yield chunk as Buffer;
}
