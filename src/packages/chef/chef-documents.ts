// The documents of the Supermarket API that knife and Berkshelf read (Forgejo: routers/api/packages/chef/chef.go;
// knife's supermarket_{list,search,show,download}.rb, Berkshelf's universe source): the universe of every version
// with its dependencies, the cookbook list, a cookbook with its versions, one version with its download address.
import type { IndexedFile } from '../../db/package-index.repository.ts';
import type { ChefMetadata } from './chef-metadata.ts';

export interface ChefVersion {
  name: string;
  version: string;
  metadata: ChefMetadata;
  published: Date;
  size: number;
}

export function chefVersions(files: readonly IndexedFile[]): ChefVersion[] {
  return files.map((file) => ({
    name: file.packageName,
    version: file.version,
    metadata: JSON.parse(file.metadataJson) as ChefMetadata,
    published: file.versionCreatedAt,
    size: file.size,
  }));
}

/** Chef's order of versions: number by number, `1.0` as `1.0.0`. */
export function compareChefVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let index = 0; index < 3; index++) {
    const order = (x[index] ?? 0) - (y[index] ?? 0);
    if (order !== 0) return order;
  }
  return a.localeCompare(b);
}

const cookbookUrl = (base: string, name: string) => `${base}/cookbooks/${encodeURIComponent(name)}`;
const versionUrl = (base: string, name: string, version: string) =>
  `${cookbookUrl(base, name)}/versions/${encodeURIComponent(version)}`;
const downloadUrl = (base: string, name: string, version: string) => `${versionUrl(base, name, version)}/download`;

/** GET universe: name ─▶ version ─▶ where to fetch it and what it depends on; `base` ends in /api/v1. */
export function universeDocument(base: string, versions: readonly ChefVersion[]) {
  const universe: Record<string, Record<string, unknown>> = {};
  for (const row of versions) {
    (universe[row.name] ??= {})[row.version] = {
      location_type: 'opscode',
      location_path: base,
      download_url: downloadUrl(base, row.name, row.version),
      dependencies: row.metadata.dependencies ?? {},
    };
  }
  return universe;
}

/** One item of GET cookbooks and GET search. */
export function cookbookItem(base: string, row: { name: string; metadata: ChefMetadata }) {
  return {
    cookbook_name: row.name,
    cookbook_maintainer: row.metadata.author,
    cookbook_description: row.metadata.description,
    cookbook: cookbookUrl(base, row.name),
  };
}

/** GET cookbooks/{name}: the latest version's fields and every version's address, oldest first. */
export function cookbookDocument(base: string, versions: readonly ChefVersion[]) {
  const ordered = [...versions].sort((a, b) => compareChefVersions(a.version, b.version));
  const latest = ordered[ordered.length - 1];
  return {
    name: latest.name,
    maintainer: latest.metadata.author,
    description: latest.metadata.description,
    category: '',
    latest_version: versionUrl(base, latest.name, latest.version),
    source_url: latest.metadata.repository_url,
    created_at: latest.published.toISOString(),
    updated_at: latest.published.toISOString(),
    deprecated: false,
    versions: ordered.map((row) => versionUrl(base, row.name, row.version)),
  };
}

/** GET cookbooks/{name}/versions/{version}. */
export function versionDocument(base: string, row: ChefVersion) {
  return {
    version: row.version,
    tarball_file_size: row.size,
    published_at: row.published.toISOString(),
    cookbook: cookbookUrl(base, row.name),
    file: downloadUrl(base, row.name, row.version),
    license: row.metadata.license,
    dependencies: row.metadata.dependencies ?? {},
  };
}

/** Failures as knife reads them: `{"error_messages": […]}`. */
export function chefError(message: string) {
  return { error_messages: [message] };
}
