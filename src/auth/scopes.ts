// Token scopes, as Forgejo spells them: all, public-only, read:<category>, write:<category>.
import type { ScopeCategory } from '../../generated/operations.ts';

export const SCOPE_CATEGORIES: readonly ScopeCategory[] = [
  'activitypub',
  'admin',
  'issue',
  'misc',
  'notification',
  'organization',
  'package',
  'repository',
  'user',
];

export interface TokenScope {
  all: boolean;
  publicOnly: boolean;
  read: ReadonlySet<ScopeCategory>;
  write: ReadonlySet<ScopeCategory>;
}

export class InvalidScopeError extends Error {}

/** Parses a comma-separated scope list; `sudo` and empty items are ignored, anything unknown is an error. */
export function parseScope(text: string): TokenScope {
  const read = new Set<ScopeCategory>();
  const write = new Set<ScopeCategory>();
  let all = false;
  let publicOnly = false;
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '' || item === 'sudo') continue;
    if (item === 'all') all = true;
    else if (item === 'public-only') publicOnly = true;
    else {
      const [level, category] = item.split(':') as [string, ScopeCategory];
      if (!SCOPE_CATEGORIES.includes(category) || (level !== 'read' && level !== 'write'))
        throw new InvalidScopeError(`invalid access token scope: ${item}`);
      if (level === 'write') write.add(category);
      read.add(category);
    }
  }
  return { all, publicOnly, read, write };
}

/** Normalises a requested scope list for storage: validated, de-duplicated, in a stable order. */
export function normaliseScopes(items: readonly string[]): string {
  const scope = parseScope(items.join(','));
  const parts: string[] = [];
  if (scope.all) parts.push('all');
  if (scope.publicOnly) parts.push('public-only');
  for (const category of SCOPE_CATEGORIES) {
    if (scope.all) break;
    if (scope.write.has(category)) parts.push(`write:${category}`);
    else if (scope.read.has(category)) parts.push(`read:${category}`);
  }
  return parts.join(',');
}

/** Categories the token lacks for a request; reads for GET/HEAD, writes otherwise. */
export function missingCategories(
  scope: TokenScope,
  method: string,
  needed: readonly ScopeCategory[],
): ScopeCategory[] {
  if (scope.all) return [];
  const granted = method === 'GET' || method === 'HEAD' ? scope.read : scope.write;
  return needed.filter((category) => !granted.has(category));
}

/** Whether the caller's credential carries the admin scope for this request: a password always, a public-only token never. */
export function grantsAdmin(caller: { scope: TokenScope | null }, method: string): boolean {
  if (!caller.scope) return true;
  return !caller.scope.publicOnly && missingCategories(caller.scope, method, ['admin']).length === 0;
}
