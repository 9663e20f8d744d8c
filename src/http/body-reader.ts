// Reads a request body into memory within a byte limit. A Content-Length over the limit is refused before a byte
// is read; a chunked or compressed body as soon as what it decodes to passes the limit. gzip and deflate bodies
// are inflated, with the limit applying to the inflated bytes.
import zlib from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../domain/errors.ts';

export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

export function bodyTooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`request body too large: at most ${limit} bytes`);
}

/** The Content-Length header says the body is longer than the limit. */
export function announcesMoreThan(req: IncomingMessage, limit: number): boolean {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > limit;
}

/** The stream that inflates the body's Content-Encoding, or null for an unencoded body; 415 for other codings. */
export function decoderFor(req: IncomingMessage): zlib.Gunzip | zlib.Inflate | null {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    default:
      throw new UnsupportedMediaTypeError(`unsupported content encoding "${encoding}"`);
  }
}

export function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (announcesMoreThan(req, limit)) return reject(bodyTooLarge(limit));
    let decoder: zlib.Gunzip | zlib.Inflate | null;
    try {
      decoder = decoderFor(req);
    } catch (error) {
      return reject(error);
    }
    const source: Readable = decoder ? req.pipe(decoder) : req;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (!error) return resolve(Buffer.concat(chunks, size));
      // Stop reading: the rest of the body is never looked at (the caller closes the connection).
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return settle(bodyTooLarge(limit));
      chunks.push(chunk);
    };
    source.on('data', onData);
    source.on('end', () => settle());
    req.on('error', () => settle(new BadRequestError('the request body could not be read')));
    decoder?.on('error', () =>
      settle(new BadRequestError(`the request body does not decode as its Content-Encoding says`)),
    );
  });
}
