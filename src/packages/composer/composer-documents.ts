// The documents Composer reads from a repository of type `composer` (getcomposer.org/doc/05-repositories.md):
// packages.json naming the per-package metadata URL (`p2/%package%.json`), the search and the package list; a
// package's metadata with every version's composer.json fields and its dist (the zip, with its SHA-1); search
// results. The metadata is sent expanded, not `composer/2.0`-minified: a minified list inherits every field a
// version leaves out from the version before it.
import type { FoundPackage, IndexedFile } from '../../db/package-index.repository.ts';
import type { ComposerMetadata } from './composer-archive.ts';

export function serviceIndex(registryUrl: string) {
  return {
    packages: {},
    'metadata-url': `${registryUrl}/p2/%package%.json`,
    search: `${registryUrl}/search.json?q=%query%&type=%type%`,
    list: `${registryUrl}/list.json`,
  };
}

export function parseMetadata(metadataJson: string): ComposerMetadata {
  try {
    const parsed = JSON.parse(metadataJson) as Partial<ComposerMetadata>;
    return { ...parsed, type: parsed.type ?? 'library' };
  } catch {
    return { type: 'library' };
  }
}

/** A file's download address: the package name, version and file name each one path segment. */
export function distUrl(registryUrl: string, name: string, version: string, fileName: string): string {
  const segments = [name.toLowerCase(), version.toLowerCase(), fileName].map(encodeURIComponent);
  return `${registryUrl}/files/${segments.join('/')}`;
}

/** `p2/{name}.json`: the versions of `files` (one zip each), newest first. */
export function packageMetadata(name: string, files: readonly IndexedFile[], registryUrl: string) {
  const versions = [...files].reverse().map((file) => {
    const { type, readme: _readme, ...fields } = parseMetadata(file.metadataJson);
    return {
      name,
      version: file.version,
      type,
      time: file.versionCreatedAt.toISOString(),
      ...fields,
      dist: { type: 'zip', url: distUrl(registryUrl, name, file.version, file.fileName), shasum: file.sha1 },
    };
  });
  return { packages: { [name]: versions } };
}

export function searchResults(found: readonly FoundPackage[], total: number, next: string | undefined) {
  return {
    total,
    results: found.map((item) => ({
      name: item.name,
      description: parseMetadata(item.newest.metadataJson).description ?? '',
      downloads: item.newest.downloadCount,
    })),
    ...(next ? { next } : {}),
  };
}
