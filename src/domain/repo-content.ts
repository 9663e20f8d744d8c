// An entry of a repository's tree as the contents API shows it (Forgejo: services/repository/files/content.go).
export type ContentType = 'file' | 'dir' | 'symlink' | 'submodule';

export interface ContentEntry {
  type: ContentType;
  name: string;
  path: string;
  /** The blob, tree or submodule commit id. */
  sha: string;
  size: number;
  /** The last commit that changed the entry. */
  lastCommitSha: string;
  /** Base64 of a file's bytes (only for a single file, not in directory listings). */
  content?: string;
  /** Where a symlink points. */
  target?: string;
}

/** The ref the entries were read at, for the links the API shows. */
export interface ContentRef {
  name: string;
  kind: 'branch' | 'tag' | 'commit';
}

/** Git's mode of a tree entry as a contents type. */
export function contentType(mode: string): ContentType {
  if (mode === '040000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/**
 * A path a write may create: relative, no empty, `.` or `..` segments, no `.git` segment (git would refuse the tree),
 * no NUL or line break. Returns the path without leading or trailing slashes, or null.
 */
export function cleanTreePath(raw: string): string | null {
  const path = raw.replace(/^\/+|\/+$/g, '');
  if (path === '' || /[\0\n\r]/.test(path)) return null;
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  if (segments.some((segment) => segment.toLowerCase() === '.git')) return null;
  return path;
}
