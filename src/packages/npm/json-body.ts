// A small JSON body (a dist-tag's version), read whole within a bound.
import type { Readable } from 'node:stream';
import { BadRequestError, PayloadTooLargeError } from '../../domain/errors.ts';

const MAX_BYTES = 64 * 1024;

export async function readJsonBody(body: Readable): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) throw new PayloadTooLargeError('the body is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadRequestError('the body is not JSON');
  }
}
