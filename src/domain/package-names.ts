// What the generic registry accepts as a package name, version and file name (Forgejo:
// routers/api/packages/generic/generic.go). Names never become paths (blobs are stored by their SHA-256), but a
// name that could read as one is refused anyway, before a byte of the upload is read.

/** Letters, digits and `-_+.`; a single character must be a letter or digit; never `..`. */
const PACKAGE_NAME = /^[-_+.A-Za-z0-9]+$/;
/** What Forgejo allows in a generic file name: letters, digits, space and `-_+=:;.()[]{}~!@#$%^&`. */
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;
/** Control characters, and separators no version of any package type uses. */
const VERSION_FORBIDDEN = /[\u0000-\u001f\u007f/\\]/;

export function isValidGenericPackageName(name: string): boolean {
  if (name.length === 1 && !/^[A-Za-z0-9]$/.test(name)) return false;
  return PACKAGE_NAME.test(name) && name !== '..';
}

export function isValidGenericFileName(name: string): boolean {
  return FILE_NAME.test(name) && name.trim() === name && name !== '.' && name !== '..';
}

/**
 * Forgejo refuses a version with surrounding white space; Anvil also refuses an empty one, `.` and `..`, slashes
 * and control characters.
 */
export function isValidGenericVersion(version: string): boolean {
  return (
    version !== '' &&
    version.trim() === version &&
    version !== '.' &&
    version !== '..' &&
    !VERSION_FORBIDDEN.test(version)
  );
}
