// What the npm registry accepts as a package name, a version and a dist-tag (npm's validate-npm-package-name for
// new packages; Forgejo: modules/packages/npm/creator.go).
import semver from 'semver';

const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const MAX_NAME_LENGTH = 214;
const TAG_FORBIDDEN = /[\s/\\%?#\u0000-\u001f\u007f]/;

export function isValidNpmName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME.test(name);
}

/** A full semantic version, spelled as semver spells it (`1.0.0`, not `v1.0.0` or `=1.0.0`). */
export function isValidNpmVersion(version: string): boolean {
  return semver.valid(version) === version;
}

/** A tag is no version or range (`npm install pkg@1` must mean the range), and stays one path segment. */
export function isValidDistTag(tag: string): boolean {
  return tag !== '' && tag.length <= MAX_NAME_LENGTH && !TAG_FORBIDDEN.test(tag) && semver.validRange(tag) === null;
}

/** The tarball's file name: the name without its scope, and the version (`@a/b` 1.0.0: `b-1.0.0.tgz`). */
export function tarballName(name: string, version: string): string {
  return `${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
}
