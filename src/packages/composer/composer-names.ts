// Package names and versions as Composer and Forgejo accept them: `vendor/project` in lower case
// (getcomposer.org/doc/04-schema.md#name), versions in the semantic-versioning-like form Forgejo's version parser
// takes (`1.2.3`, `v1.2`, `1.0.0-beta.1`, `1.2.3.4`).

const NAME = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]?|-{0,2})[a-z0-9]+)*$/;
const IDENTIFIERS = String.raw`[0-9A-Za-z~-]+(?:\.[0-9A-Za-z~-]+)*`;
const VERSION = new RegExp(String.raw`^v?[0-9]+(?:\.[0-9]+)*(?:-?${IDENTIFIERS})?(?:\+${IDENTIFIERS})?$`);

export function isValidComposerName(name: string): boolean {
  return name.length <= 255 && NAME.test(name);
}

export function isValidComposerVersion(version: string): boolean {
  return version.length <= 255 && VERSION.test(version);
}

/** Versions Composer serves from a package's `~dev` file: branches (`dev-main`, `1.x-dev`). */
export function isDevVersion(version: string): boolean {
  return /^dev-|-dev$/i.test(version);
}

/** The stored file's name, as Forgejo names it: `vendor-project.1.0.0.zip`, lower case. */
export function archiveFileName(name: string, version: string): string {
  return `${name.replace('/', '-')}.${version}.zip`.toLowerCase();
}
