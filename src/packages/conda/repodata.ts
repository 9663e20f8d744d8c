// The index documents conda reads (Forgejo: routers/api/packages/conda EnumeratePackages): repodata.json of a
// channel's subdir, every file under `packages` (.tar.bz2) or `packages.conda` keyed by its file name with what the
// solver needs; and channeldata.json, one entry per package with its newest version, links and subdirs.
import type { TypeFile } from '../../db/package-index.repository.ts';
import type { CondaFileMetadata, CondaVersionMetadata } from './conda-metadata.ts';

/** A file of the channel with its name and the metadata its version and the file keep. */
export interface ChannelFile {
  name: string;
  row: TypeFile;
  version: CondaVersionMetadata;
  file: CondaFileMetadata;
}

interface RepodataRecord {
  name: string;
  version: string;
  build: string;
  build_number: number;
  depends: string[];
  constrains?: string[];
  track_features?: string;
  noarch?: string;
  license?: string;
  license_family?: string;
  subdir: string;
  timestamp?: number;
  md5: string;
  sha256: string;
  size: number;
}

export function repodata(subdir: string, files: readonly ChannelFile[]) {
  const packages: Record<string, RepodataRecord> = {};
  const condaPackages: Record<string, RepodataRecord> = {};
  for (const { name, row, version, file } of files) {
    const record: RepodataRecord = {
      name,
      version: row.version,
      build: file.build,
      build_number: file.build_number,
      depends: file.depends,
      ...(file.constrains ? { constrains: file.constrains } : {}),
      ...(file.track_features ? { track_features: file.track_features } : {}),
      ...(file.noarch ? { noarch: file.noarch } : {}),
      ...(version.license ? { license: version.license } : {}),
      ...(version.license_family ? { license_family: version.license_family } : {}),
      subdir,
      ...(file.timestamp ? { timestamp: file.timestamp } : {}),
      md5: row.md5,
      sha256: row.sha256,
      size: row.size,
    };
    (file.is_conda ? condaPackages : packages)[row.fileName] = record;
  }
  return { info: { subdir }, packages, 'packages.conda': condaPackages, removed: [], repodata_version: 1 };
}

interface ChannelPackage {
  version: string;
  subdirs: string[];
  description?: string;
  summary?: string;
  home?: string;
  dev_url?: string;
  doc_url?: string;
  license?: string;
  license_family?: string;
  timestamp?: number;
}

/** Files oldest first: the newest version's metadata wins. */
export function channeldata(files: readonly ChannelFile[]) {
  const packages: Record<string, ChannelPackage> = {};
  const subdirs = new Set<string>();
  for (const { name, row, version, file } of files) {
    subdirs.add(row.compositeKey);
    const seen = packages[name]?.subdirs ?? [];
    packages[name] = {
      version: row.version,
      subdirs: seen.includes(row.compositeKey) ? seen : [...seen, row.compositeKey].sort(),
      ...(version.description ? { description: version.description } : {}),
      ...(version.summary ? { summary: version.summary } : {}),
      ...(version.project_url ? { home: version.project_url } : {}),
      ...(version.repository_url ? { dev_url: version.repository_url } : {}),
      ...(version.documentation_url ? { doc_url: version.documentation_url } : {}),
      ...(version.license ? { license: version.license } : {}),
      ...(version.license_family ? { license_family: version.license_family } : {}),
      ...(file.timestamp ? { timestamp: file.timestamp } : {}),
    };
  }
  return { channeldata_version: 1, packages, subdirs: [...subdirs].sort() };
}
