// Module paths and versions as the go command writes them (go.dev/ref/mod): a path is `/`-separated elements of
// letters, digits and `-._~+`; a version is canonical semantic versioning with a `v` (build metadata only as
// `+incompatible`). In proxy URLs each upper-case letter is escaped as `!` and its lower case, so that paths stay
// distinct on case-insensitive file systems.
import semver from 'semver';

const ELEMENT = /^[A-Za-z0-9._~+-]+$/;
const MAX_PATH = 512;

export function isValidModulePath(path: string): boolean {
  if (path.length === 0 || path.length > MAX_PATH) return false;
  return path.split('/').every((element) => ELEMENT.test(element) && element !== '.' && element !== '..');
}

/** `v1.2.3`, `v1.2.3-pre.1`, `v2.0.0+incompatible`: canonical, as the go command puts them in zips and lists. */
export function isValidModuleVersion(version: string): boolean {
  if (!version.startsWith('v')) return false;
  const bare = version.slice(1).replace(/\+incompatible$/, '');
  return semver.valid(bare) === bare;
}

/** `github.com/!azure/sdk` → `github.com/Azure/sdk`; null for text no escaping produces. */
export function unescapeModuleText(escaped: string): string | null {
  if (/[A-Z]/.test(escaped)) return null;
  let broken = false;
  const text = escaped.replace(/!(.?)/g, (_, letter: string) => {
    if (!/^[a-z]$/.test(letter)) broken = true;
    return letter.toUpperCase();
  });
  return broken ? null : text;
}

/** The greater of two valid module versions by semantic versioning. */
export function compareModuleVersions(a: string, b: string): number {
  return semver.compare(a.slice(1), b.slice(1));
}

/** What `@latest` names: the highest release, else the highest pre-release (as the go command picks from a list). */
export function latestModuleVersion(versions: readonly string[]): string | undefined {
  const valid = versions.filter(isValidModuleVersion);
  const releases = valid.filter((version) => semver.prerelease(version.slice(1).replace(/\+.*$/, '')) === null);
  const pool = releases.length > 0 ? releases : valid;
  return pool.reduce<string | undefined>(
    (best, version) => (best === undefined || compareModuleVersions(version, best) > 0 ? version : best),
    undefined,
  );
}
