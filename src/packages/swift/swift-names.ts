// Swift registry identifiers (SE-0292, the registry specification's 3.6): a scope and a name, compared without
// regard to case, and a semantic version; the package is stored as `scope.name` (Forgejo's package name).
import semver from 'semver';

const SCOPE = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,38}$/;
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,99}$/;

export function isValidScope(scope: string): boolean {
  return SCOPE.test(scope);
}

export function isValidName(name: string): boolean {
  return NAME.test(name);
}

export function packageId(scope: string, name: string): string {
  return `${scope}.${name}`;
}

/** `1`, `1.2`, `v1.2.3` and `1.2.3-beta` as `1.2.3`-style semantic versions; null for anything else. */
export function normalVersion(version: string): string | null {
  if (version.length > 100) return null;
  const padded = /^v?\d+(\.\d+)?$/.test(version)
    ? `${version}${version.split('.').length === 1 ? '.0.0' : '.0'}`
    : version;
  const parsed = semver.parse(padded.replace(/^v/, ''));
  return parsed ? parsed.version : null;
}

/** `5.9.0` → `5.9`, `5.9.1` → `5.9.1`: how Swift versions name manifests (Package@swift-5.9.swift). */
export function trimmedSwiftVersion(version: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(version);
  if (!match) return null;
  const [, major, minor = '0', patch = '0'] = match;
  return `${Number(major)}.${Number(minor)}${Number(patch) === 0 ? '' : `.${Number(patch)}`}`;
}
