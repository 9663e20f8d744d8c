// The documents of the pub repository spec v2 (github.com/dart-lang/pub/blob/master/doc/repository-spec-v2.md;
// Forgejo: routers/api/packages/pub): a package's versions with the latest, one version, the upload target, and
// failures as `{"error": {code, message}}`.
import semver from 'semver';
import type { IndexedFile } from '../../db/package-index.repository.ts';

export const PUB_JSON = 'application/vnd.pub.v2+json';

export interface PubVersion {
  version: string;
  pubspec: Record<string, unknown>;
  published: Date;
  sha256: string;
}

export function pubVersions(files: readonly IndexedFile[]): PubVersion[] {
  return files.map((file) => ({
    version: file.version,
    pubspec: (JSON.parse(file.metadataJson) as { pubspec?: Record<string, unknown> }).pubspec ?? {},
    published: file.versionCreatedAt,
    sha256: file.sha256,
  }));
}

export function archiveUrl(base: string, name: string, version: string): string {
  return `${base}/api/packages/${encodeURIComponent(name)}/files/${encodeURIComponent(version)}.tar.gz`;
}

export function versionDocument(base: string, name: string, version: PubVersion) {
  return {
    version: version.version,
    archive_url: archiveUrl(base, name, version.version),
    archive_sha256: version.sha256,
    pubspec: version.pubspec,
    published: version.published.toISOString(),
  };
}

/** The newest release, or the newest pre-release when there is no release (pub's own choice of `latest`). */
function latestOf(versions: readonly PubVersion[]): PubVersion {
  const sorted = [...versions].sort((a, b) => semver.rcompare(a.version, b.version));
  return sorted.find((version) => semver.prerelease(version.version) === null) ?? sorted[0];
}

/** GET api/packages/{name}: every version, oldest first, and the latest. */
export function packageDocument(base: string, name: string, versions: readonly PubVersion[]) {
  const ordered = [...versions].sort((a, b) => semver.compare(a.version, b.version));
  return {
    name,
    latest: versionDocument(base, name, latestOf(ordered)),
    versions: ordered.map((version) => versionDocument(base, name, version)),
  };
}

/** The pub API's error body. */
export function pubError(status: number, message: string) {
  const code =
    status === 404
      ? 'NotFound'
      : status === 401
        ? 'MissingAuthentication'
        : status === 403
          ? 'Forbidden'
          : status === 409
            ? 'Conflict'
            : 'InvalidInput';
  return { error: { code, message } };
}
