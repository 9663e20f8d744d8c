// The box's metadata document `vagrant box add <url>` reads (Vagrant's box metadata format; Forgejo:
// routers/api/packages/vagrant EnumeratePackageVersions): the box's name and description, every version oldest
// first with its status, and each version's providers with the file's address and checksum.
import semver from 'semver';
import type { IndexedFile } from '../../db/package-index.repository.ts';
import type { BoxMetadata } from './box-archive.ts';

export interface BoxDocument {
  name: string;
  description?: string;
  versions: {
    version: string;
    status: 'active';
    providers: { name: string; url: string; checksum: string; checksum_type: 'sha256' }[];
  }[];
}

/** The provider a file serves: its name without `.box`. */
export const providerOf = (fileName: string) => fileName.replace(/\.box$/i, '');

function byVersion(a: string, b: string): number {
  const [x, y] = [semver.coerce(a, { includePrerelease: true }), semver.coerce(b, { includePrerelease: true })];
  return x && y ? semver.compare(x, y) || a.localeCompare(b) : a.localeCompare(b);
}

function readMetadata(json: string): BoxMetadata {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' ? (parsed as BoxMetadata) : {};
  } catch {
    return {};
  }
}

/** `files`: every file of the box's versions; `boxUrl`: the document's own address. */
export function boxDocument(name: string, files: readonly IndexedFile[], boxUrl: string): BoxDocument {
  const versions = new Map<string, IndexedFile[]>();
  for (const file of files) versions.set(file.version, [...(versions.get(file.version) ?? []), file]);
  const ordered = [...versions.keys()].sort(byVersion);
  const latest = versions.get(ordered.at(-1) ?? '')?.[0];
  const description = latest ? readMetadata(latest.metadataJson).description : undefined;
  return {
    name,
    ...(description ? { description } : {}),
    versions: ordered.map((version) => ({
      version,
      status: 'active',
      providers: versions.get(version)!.map((file) => ({
        name: providerOf(file.fileName),
        url: `${boxUrl}/${encodeURIComponent(version)}/${encodeURIComponent(file.fileName)}`,
        checksum: file.sha256,
        checksum_type: 'sha256',
      })),
    })),
  };
}
