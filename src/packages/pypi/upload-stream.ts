// The multipart body of `twine upload`, read as it arrives: the text fields first, then the `content` file, whose
// bytes are handed on as a stream (never held in memory). twine sends every field before the file; a body whose
// file comes before its name and version is refused, since where the bytes go depends on them.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { BadRequestError } from '../../domain/errors.ts';

export interface UploadParts {
  /** Each text field's last value. */
  fields: Map<string, string>;
  /** Every `project_urls` value ("Label, url"); the only repeated field kept. */
  projectUrls: string[];
  fileName: string;
  /** The file's bytes; read it to the end (or destroy the request). */
  file: Readable;
  /** Settles once the whole body has been read. */
  finished: Promise<void>;
}

const LIMITS = { fields: 500, fieldSize: 4 * 1024 * 1024, fieldNameSize: 200, files: 3, parts: 600 };

/** Resolves when the `content` part starts; a body that is not such a form answers 400. */
export function readUploadParts(headers: IncomingHttpHeaders, body: Readable): Promise<UploadParts> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: LIMITS });
  } catch {
    return Promise.reject(new BadRequestError('the upload must be a multipart/form-data body'));
  }
  const fields = new Map<string, string>();
  const projectUrls: string[] = [];
  let settleFinished: (error?: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    settleFinished = (error) => (error ? reject(error as Error) : resolve());
  });
  finished.catch(() => undefined);
  return new Promise<UploadParts>((resolve, reject) => {
    let started = false;
    parser.on('field', (name, value) => {
      if (name === 'project_urls') projectUrls.push(value);
      else fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'content' || started) {
        stream.resume();
        return;
      }
      started = true;
      resolve({ fields, projectUrls, fileName: info.filename ?? '', file: stream, finished });
    });
    parser.on('error', (error) => {
      const refused = new BadRequestError(`the upload form is malformed: ${(error as Error).message}`);
      settleFinished(refused);
      if (!started) reject(refused);
    });
    parser.on('close', () => {
      settleFinished();
      if (!started) reject(new BadRequestError('the upload has no "content" file'));
    });
    body.pipe(parser);
  });
}
