// The DESCRIPTION of an R package built as a zip (Windows binaries). A zip is read from its central directory at
// the end, so the upload is spooled to a private temporary file as it streams in, then read with the core's
// defensive zip reader (core/uploaded-zip.ts: climbing or absolute names, too many entries and declared bombs are
// refused with 400). The file is removed whatever happens.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BadRequestError } from '../../domain/errors.ts';
import { UploadedZip } from '../core/uploaded-zip.ts';
import { type CranDescription, parseDescription } from './description.ts';

/** A binary package's files; R's largest CRAN binaries unpack to a few hundred MiB. */
const ZIP_LIMITS = { maxEntries: 100_000, maxTotalBytes: 2 * 1024 * 1024 * 1024 };

export async function readZipDescription(body: Readable, maxBytes: number): Promise<CranDescription | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'anvil-cran-'));
  try {
    const file = path.join(dir, 'package.zip');
    await pipeline(body, fs.createWriteStream(file, { mode: 0o600 }));
    const zip = await UploadedZip.open(file, ZIP_LIMITS);
    try {
      const descriptions = zip.members().filter((member) => /^[^/]+\/DESCRIPTION$/.test(member.name));
      if (descriptions.length > 1) throw new BadRequestError('invalid R package: two DESCRIPTION files');
      if (descriptions.length === 0) return undefined;
      return parseDescription((await zip.read(descriptions[0].name, maxBytes)).toString('utf8'));
    } finally {
      zip.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
