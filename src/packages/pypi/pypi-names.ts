// Project names and versions as Python packaging defines them: names compare in their PEP 503 normal form, versions
// follow PEP 440 (any spelling its grammar allows; pip normalises on its side).

/** PEP 508: letters and digits, with `.`, `_` and `-` inside. */
const PROJECT_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

/** PEP 440, appendix B: epoch, release, pre-, post- and dev-release, local label. */
const VERSION = new RegExp(
  '^v?(?:[0-9]+!)?[0-9]+(?:\\.[0-9]+)*' +
    '(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?' +
    '(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?' +
    '(?:[-_.]?dev[-_.]?[0-9]*)?' +
    '(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$',
  'i',
);

export function isValidProjectName(name: string): boolean {
  return PROJECT_NAME.test(name);
}

/** PEP 503: runs of `-`, `_` and `.` become one `-`, letters lower case. */
export function normalizeProjectName(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

export function isValidProjectVersion(version: string): boolean {
  return version.length <= 255 && VERSION.test(version);
}
