// A .gem as `gem push` sends it: a tar of metadata.gz (the specification, gzipped YAML), data.tar.gz (the files)
// and checksums.yaml.gz. Read as it streams in: the specification is kept, the file tree's paths are checked, and a
// gem without a specification, one that unpacks without bound or that writes outside its directory answers 400.
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { BadRequestError } from '../../domain/errors.ts';
import { readEntry, scanTar } from '../core/archive-scan.ts';
import { type GemSpec, parseGemSpec } from './gem-spec.ts';

/** Real specifications are kilobytes; a megabyte-sized one is refused before it is parsed. */
const MAX_SPEC_BYTES = 1024 * 1024;

function gunzipSpec(packed: Buffer): string {
  try {
    return gunzipSync(packed, { maxOutputLength: MAX_SPEC_BYTES }).toString('utf8');
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    throw new BadRequestError(
      tooLarge ? 'invalid gem: metadata.gz is too large' : 'invalid gem: metadata.gz is not gzip',
    );
  }
}

export async function readGem(body: Readable): Promise<GemSpec> {
  let spec: GemSpec | undefined;
  await scanTar(body, {
    gzipped: false,
    visit: async (entry, content) => {
      if (entry.name === 'metadata.gz') {
        if (spec) throw new BadRequestError('invalid gem: two specifications');
        spec = parseGemSpec(gunzipSpec(await readEntry(content, MAX_SPEC_BYTES, 'metadata.gz')));
      } else if (entry.name === 'data.tar.gz') {
        await scanTar(content, { gzipped: true });
      }
    },
  });
  if (!spec) throw new BadRequestError('invalid gem: it has no metadata.gz');
  return spec;
}
