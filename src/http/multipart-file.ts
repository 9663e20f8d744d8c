// The one file of a multipart/form-data body, streamed as it arrives (busboy), with the form's text fields read
// before it. Other files are skipped.
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { BadRequestError } from '../domain/errors.ts';

export interface MultipartFile {
  /** The file name the client gave. */
  fileName: string;
  stream: Readable;
  /** Text fields that came before the file. */
  fields: Map<string, string>;
}

/** Resolves once the file named `field` starts; rejects with 400 when the body has none or is not multipart. */
export function multipartFile(req: Request, field: string): Promise<MultipartFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 8, fields: 32 } });
    } catch {
      return reject(new BadRequestError('the body is not multipart/form-data'));
    }
    const fields = new Map<string, string>();
    let found = false;
    parser.on('field', (name, value) => fields.set(name, value));
    parser.on('file', (name, stream, info) => {
      if (found || name !== field) return stream.resume();
      found = true;
      resolve({ fileName: info.filename ?? '', stream, fields });
    });
    parser.on('error', (error) => reject(new BadRequestError(`malformed multipart body: ${(error as Error).message}`)));
    parser.on('close', () => {
      if (!found) reject(new BadRequestError(`no file in the form field "${field}"`));
    });
    req.pipe(parser);
  });
}
