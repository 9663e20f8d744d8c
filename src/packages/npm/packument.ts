// The documents npm reads about a package, built from its rows (Forgejo: routers/api/packages/npm/api.go): the full
// packument (`npm view`, `npm publish`'s checks, `npm deprecate`), and the abbreviated one `npm install` asks for
// with `Accept: application/vnd.npm.install-v1+json` — only what resolving and installing needs.
import semver from 'semver';
import type { NpmPackageRows, NpmVersionRow } from '../../db/npm.repository.ts';

type Manifest = Record<string, unknown>;

/** The fields of a version the abbreviated document keeps (npm's registry: "Package metadata", abbreviated). */
const ABBREVIATED_FIELDS = [
  'name',
  'version',
  'deprecated',
  'dependencies',
  'optionalDependencies',
  'devDependencies',
  'bundleDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'directories',
  'engines',
  'os',
  'cpu',
  'funding',
  'acceptDependencies',
  '_hasShrinkwrap',
  'hasInstallScript',
] as const;

/** The package-level fields the full document copies from the `latest` version. */
const LATEST_FIELDS = ['description', 'homepage', 'keywords', 'license', 'author', 'repository', 'bugs', 'readme'];

export function parseManifest(json: string): Manifest {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Manifest) : {};
  } catch {
    return {};
  }
}

/** npm's Subresource Integrity form of a SHA-512 given in hex. */
export function integrityOf(sha512Hex: string): string {
  return `sha512-${Buffer.from(sha512Hex, 'hex').toString('base64')}`;
}

function tarballUrl(registryUrl: string, name: string, row: NpmVersionRow): string {
  return `${registryUrl}/${name}/-/${encodeURIComponent(row.version)}/${encodeURIComponent(row.fileName)}`;
}

function dist(registryUrl: string, name: string, row: NpmVersionRow) {
  return {
    shasum: row.sha1,
    integrity: integrityOf(row.sha512),
    tarball: tarballUrl(registryUrl, name, row),
  };
}

function distTags(rows: NpmPackageRows): Record<string, string> {
  return Object.fromEntries(rows.tags.map((tag) => [tag.name, tag.version]));
}

/** The latest change: a version published or a tag moved. */
export function modifiedAt(rows: NpmPackageRows): Date {
  let latest = 0;
  for (const row of rows.versions) latest = Math.max(latest, row.createdAt.getTime());
  for (const tag of rows.tags) latest = Math.max(latest, tag.updatedAt.getTime());
  return new Date(latest);
}

function byVersion(rows: NpmPackageRows): NpmVersionRow[] {
  return [...rows.versions].sort((a, b) => semver.compare(a.version, b.version));
}

export function fullPackument(rows: NpmPackageRows, registryUrl: string): Manifest {
  const { name } = rows;
  const versions: Record<string, Manifest> = {};
  const time: Record<string, string> = {};
  const ordered = byVersion(rows);
  for (const row of ordered) {
    const manifest = parseManifest(row.metadataJson);
    versions[row.version] = {
      ...manifest,
      name,
      version: row.version,
      _id: `${name}@${row.version}`,
      dist: dist(registryUrl, name, row),
    };
    time[row.version] = row.createdAt.toISOString();
  }
  const tags = distTags(rows);
  const latest = versions[tags.latest ?? ''] ?? versions[ordered.at(-1)?.version ?? ''] ?? {};
  const created = Math.min(...rows.versions.map((row) => row.createdAt.getTime()));
  const shared = Object.fromEntries(
    LATEST_FIELDS.filter((field) => latest[field] !== undefined).map((field) => [field, latest[field]]),
  );
  return {
    _id: name,
    _rev: `${rows.versions.length}-${rows.packageId}`,
    name,
    ...shared,
    'dist-tags': tags,
    versions,
    time: { created: new Date(created).toISOString(), modified: modifiedAt(rows).toISOString(), ...time },
  };
}

export function abbreviatedPackument(rows: NpmPackageRows, registryUrl: string): Manifest {
  const { name } = rows;
  const versions: Record<string, Manifest> = {};
  for (const row of byVersion(rows)) {
    const manifest = parseManifest(row.metadataJson);
    const kept: Manifest = {};
    for (const field of ABBREVIATED_FIELDS) if (manifest[field] !== undefined) kept[field] = manifest[field];
    versions[row.version] = { ...kept, name, version: row.version, dist: dist(registryUrl, name, row) };
  }
  return { name, modified: modifiedAt(rows).toISOString(), 'dist-tags': distTags(rows), versions };
}
