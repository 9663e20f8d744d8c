// Whether a name may name a branch: git's check-ref-format rules for `refs/heads/<name>` (git-check-ref-format(1)
// with --branch), decided here instead of by running git for every repository created or edited.

/** Characters git never allows in a ref name: controls, space, ~ ^ : ? * [ \ and DEL. */
const FORBIDDEN_CHARACTER = /[\x00-\x20~^:?*[\\\x7f]/;

export function isValidBranchName(name: string): boolean {
  // git refuses a branch named HEAD, and `-…` would read as an option.
  if (name === '' || name.startsWith('-') || name === 'HEAD') return false;
  if (FORBIDDEN_CHARACTER.test(name) || name.includes('..') || name.includes('@{')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
