// The file of an upload as package clients send it (Forgejo: services/context UploadStream): the first file of a
// multipart/form-data body (`dotnet nuget push`, helm's push plugin, `dart pub publish`), else the body itself.
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { BadRequestError } from '../../domain/errors.ts';

const LIMITS = { fields: 50, fieldSize: 64 * 1024, files: 1, parts: 60 };

/** Resolves with the file's bytes as they arrive; read them to the end. */
export function uploadedFile(req: Request): Promise<Readable> {
  if (!req.is('multipart/form-data')) return Promise.resolve(req);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: LIMITS });
  } catch {
    return Promise.reject(new BadRequestError('the upload is not a well-formed multipart/form-data body'));
  }
  return new Promise<Readable>((resolve, reject) => {
    let started = false;
    parser.on('file', (_name, stream) => {
      if (started) {
        stream.resume();
        return;
      }
      started = true;
      resolve(stream);
    });
    parser.on('error', (error) => {
      if (!started) reject(new BadRequestError(`the upload form is malformed: ${(error as Error).message}`));
    });
    parser.on('close', () => {
      if (!started) reject(new BadRequestError('the upload has no file'));
    });
    req.pipe(parser);
  });
}
