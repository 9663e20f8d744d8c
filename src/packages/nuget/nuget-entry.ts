// One version of a NuGet package as the feeds describe it, made from the index rows of its files.
import type { IndexedFile } from '../../db/package-index.repository.ts';
import { type NugetMetadata, readNugetMetadata } from './nuspec.ts';
import { compareNugetVersions } from './nuget-version.ts';
import { nugetFileNames } from './nuget-links.ts';

export interface NugetEntry {
  /** The package id as first pushed. */
  id: string;
  version: string;
  metadata: NugetMetadata;
  published: Date;
  downloads: number;
  /** The .nupkg's size. */
  size: number;
}

/** The versions of one package, in NuGet's version order. */
export function nugetEntries(id: string, files: readonly IndexedFile[]): NugetEntry[] {
  const byVersion = new Map<number, NugetEntry>();
  for (const file of files) {
    let entry = byVersion.get(file.versionId);
    if (!entry) {
      entry = {
        id,
        version: file.version,
        metadata: readNugetMetadata(file.metadataJson),
        published: file.versionCreatedAt,
        downloads: file.downloadCount,
        size: 0,
      };
      byVersion.set(file.versionId, entry);
    }
    if (file.fileName === nugetFileNames.package(id, file.version)) entry.size = file.size;
  }
  return [...byVersion.values()].sort((a, b) => compareNugetVersions(a.version, b.version));
}
