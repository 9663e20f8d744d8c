// The manifests of a Swift source archive (Forgejo: modules/packages/swift ParsePackage): every `Package.swift` and
// `Package@swift-X.Y.swift` in the zip, read as it streams in, each at most 128 KiB; the tools version from a
// manifest's first line. A zip that is not one, an entry escaping the archive, or no Package.swift answers 400.
import type { Readable } from 'node:stream';
import type unzipper from 'unzipper';
import { BadRequestError } from '../../domain/errors.ts';
import { trimmedSwiftVersion } from './swift-names.ts';

const MAX_MANIFEST = 128 * 1024;
const MANIFEST = /^Package(?:@swift-(\d+(?:\.\d+)?(?:\.\d+)?))?\.swift$/;
const TOOLS_VERSION = /^\/\/ swift-tools-version:(\d+(?:\.\d+)?(?:\.\d+)?)/;

export interface SwiftManifest {
  content: string;
  tools_version?: string;
}

/** Manifests by Swift version ('' for Package.swift). */
export type SwiftManifests = Record<string, SwiftManifest>;

const malformed = (why: string) => new BadRequestError(`the source archive is not valid: ${why}`);

function escapes(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || name.split('/').includes('..');
}

async function readManifest(entry: unzipper.Entry): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += (chunk as Buffer).length;
    if (size > MAX_MANIFEST) throw malformed(`${entry.path} is larger than ${MAX_MANIFEST} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readSwiftArchive(body: Readable): Promise<SwiftManifests> {
  const manifests: SwiftManifests = {};
  const zip = body.pipe((require('unzipper') as typeof unzipper).Parse({ forceStream: true }));
  try {
    for await (const item of zip) {
      const entry = item as unzipper.Entry;
      if (escapes(entry.path)) throw malformed(`the entry "${entry.path}" escapes the archive`);
      const match = MANIFEST.exec(entry.path.split('/').pop() ?? '');
      if (entry.type !== 'File' || !match) {
        entry.autodrain();
        continue;
      }
      const swiftVersion = match[1] === undefined ? '' : trimmedSwiftVersion(match[1]);
      if (swiftVersion === null) throw malformed('a manifest names an invalid Swift version');
      const content = await readManifest(entry);
      const tools = TOOLS_VERSION.exec(content)?.[1];
      const toolsVersion = tools === undefined ? undefined : trimmedSwiftVersion(tools);
      manifests[swiftVersion] = { content, ...(toolsVersion ? { tools_version: toolsVersion } : {}) };
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw malformed('broken zip data');
  } finally {
    body.unpipe();
  }
  if (manifests[''] === undefined) throw malformed('Package.swift is missing');
  return manifests;
}
