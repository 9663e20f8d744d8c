// Tag protection (Forgejo: models/git/protected_tag.go): a rule's pattern is a regular expression between slashes,
// else a glob; a tag that some rule matches may be created, moved or deleted only by someone a matching rule lists.
import { compileGlob, linearRegexEngine, type GlobMatcher, MAX_GLOB_LENGTH } from './glob.ts';

export interface TagRule {
  namePattern: string;
  userIds: readonly number[];
  teamIds: readonly number[];
}

export function isRegexPattern(pattern: string): boolean {
  return pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/');
}

/** The pattern compiled (a regular expression matches anywhere in the name, as Go's MatchString), or null. */
export function compileTagPattern(pattern: string): GlobMatcher | null {
  if (pattern.length > MAX_GLOB_LENGTH || /[\t\n\r]/.test(pattern)) return null;
  if (!isRegexPattern(pattern)) return compileGlob(pattern);
  try {
    const re = linearRegexEngine().compile(pattern.slice(1, -1));
    return { test: (text) => re.matcher(text).find() };
  } catch {
    return null;
  }
}

/** Whether a rule lets this user control matching tags (Forgejo: IsUserAllowedModifyTag). */
export function ruleAllows(rule: TagRule, userId: number, teamIds: readonly number[]): boolean {
  return rule.userIds.includes(userId) || teamIds.some((team) => rule.teamIds.includes(team));
}

/** Whether the user may create, move or delete `tag`: no rule matches it, or one that matches allows them. */
export function mayControlTag(
  rules: readonly TagRule[],
  tag: string,
  userId: number,
  teamIds: readonly number[],
): boolean {
  const matching = rules.filter((rule) => compileTagPattern(rule.namePattern)?.test(tag));
  return matching.length === 0 || matching.some((rule) => ruleAllows(rule, userId, teamIds));
}
