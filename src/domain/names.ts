// Name rules for users, organizations and repositories (Forgejo: modules/validation, models/user, models/repo).

const OWNER_NAME_PATTERN = /^[\da-zA-Z][-.\w]*$/;
const CONSECUTIVE_SPECIALS = /[-._]{2,}/;
const OWNER_NAME_MAX_LENGTH = 40;

const RESERVED_OWNER_NAMES = new Set([
  '.',
  '..',
  '-',
  '.well-known',
  'api',
  'metrics',
  'v2',
  'assets',
  'attachments',
  'avatar',
  'avatars',
  'repo-avatars',
  'captcha',
  'login',
  'org',
  'repo',
  'user',
  'admin',
  'devtest',
  'explore',
  'issues',
  'pulls',
  'milestones',
  'notifications',
  'favicon.ico',
  'manifest.json',
  'robots.txt',
  'sitemap.xml',
  'ssh_info',
  'swagger.v1.json',
  'ghost',
  'gitea-actions',
  'forgejo-actions',
]);
const RESERVED_OWNER_SUFFIXES = ['.keys', '.gpg', '.rss', '.atom', '.png'];

export type NameProblem = 'reserved' | 'pattern' | 'characters' | 'length';

/** Why a user or organization name is refused, or null when it is acceptable. */
export function ownerNameProblem(name: string): NameProblem | null {
  const lower = name.trim().toLowerCase();
  if (name.length === 0 || name.length > OWNER_NAME_MAX_LENGTH) return 'length';
  if (RESERVED_OWNER_NAMES.has(lower)) return 'reserved';
  if (RESERVED_OWNER_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return 'pattern';
  if (!OWNER_NAME_PATTERN.test(name) || CONSECUTIVE_SPECIALS.test(name) || /[-._]$/.test(name)) return 'characters';
  return null;
}

const REPO_NAME_PATTERN = /^[-.\w]+$/;
const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
const RESERVED_REPO_SUFFIXES = ['.git', '.wiki', '.rss', '.atom'];
const REPO_NAME_MAX_LENGTH = 100;

export function repoNameProblem(name: string): NameProblem | null {
  const lower = name.toLowerCase();
  if (name.length === 0 || name.length > REPO_NAME_MAX_LENGTH) return 'length';
  if (RESERVED_REPO_NAMES.has(lower)) return 'reserved';
  if (RESERVED_REPO_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return 'pattern';
  if (!REPO_NAME_PATTERN.test(name)) return 'characters';
  return null;
}
