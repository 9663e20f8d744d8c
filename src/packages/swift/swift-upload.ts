// The multipart body of a Swift registry publish (SE-0292 4.6): a `source-archive` file and an optional `metadata`
// JSON part (schema.org SoftwareSourceCode), in either order (swift package-registry publish sends the archive
// first). The archive's bytes are handed on as a stream; the metadata is known once the whole body is read.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { BadRequestError } from '../../domain/errors.ts';

export interface SwiftUploadParts {
  archive: Readable;
  /** The `metadata` part's text ('' without one), once the body has been read to its end. */
  metadata: Promise<string>;
}

const MAX_METADATA = 1024 * 1024;
const LIMITS = { fields: 10, fieldSize: MAX_METADATA, files: 3, parts: 12 };

/** Resolves when the `source-archive` part starts; a body that is not such a form answers 400. */
export function readSwiftUpload(headers: IncomingHttpHeaders, body: Readable): Promise<SwiftUploadParts> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: LIMITS });
  } catch {
    return Promise.reject(new BadRequestError('the upload must be a multipart/form-data body'));
  }
  let metadata = '';
  let settle: (error?: Error) => void = () => undefined;
  const finished = new Promise<string>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve(metadata));
  });
  finished.catch(() => undefined);
  return new Promise<SwiftUploadParts>((resolve, reject) => {
    let started = false;
    const readField = async (stream: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    parser.on('field', (name, value, info) => {
      if (name !== 'metadata') return;
      if (info.valueTruncated) settle(new BadRequestError('the metadata part is too large'));
      metadata = value;
    });
    parser.on('file', (name, stream) => {
      if (name === 'metadata') {
        readField(stream).then((text) => {
          if (text.length > MAX_METADATA) settle(new BadRequestError('the metadata part is too large'));
          metadata = text;
        }, settle);
        return;
      }
      if (name !== 'source-archive' || started) {
        stream.resume();
        return;
      }
      started = true;
      resolve({ archive: stream, metadata: finished });
    });
    parser.on('error', (error) => {
      const refused = new BadRequestError(`the upload form is malformed: ${(error as Error).message}`);
      settle(refused);
      if (!started) reject(refused);
    });
    parser.on('close', () => {
      settle();
      if (!started) reject(new BadRequestError('the upload has no "source-archive" part'));
    });
    body.pipe(parser);
  });
}
