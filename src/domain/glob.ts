// Glob patterns as Forgejo matches them. Branch filters and unadopted-repository queries follow gobwas/glob
// without separators (`*` and `**` cross `/`, `?`, `[abc]`, `[a-z]`, `[!…]`, `{a,b}`, `\` escapes); host patterns
// follow Go's path/filepath.Match (`*`, `?`, `[a-z0-9]`, `[^…]`, `\`). Both are translated to RE2 syntax and run on
// re2js, whose automaton matches in time linear in the input: no pattern can make a match backtrack.
import type * as Re2js from 're2js';

let re2js: typeof Re2js.RE2JS | undefined;
/**
 * re2js, loaded at the first pattern: a process whose settings hold none, and that no request asks to match, never
 * loads it.
 */
export function linearRegexEngine(): typeof Re2js.RE2JS {
  re2js ??= (require('re2js') as typeof Re2js).RE2JS;
  return re2js;
}

/** A compiled glob; the same shape as RegExp's `test`, for callers that used to hold a RegExp. */
export interface GlobMatcher {
  test(text: string): boolean;
}

/** The longest pattern stored where a glob is written (a branch filter): matching costs pattern × input. */
export const MAX_GLOB_LENGTH = 1024;

const literal = (char: string) => `\\x{${char.codePointAt(0)!.toString(16)}}`;

/** A character class of gobwas: one range `lo-hi` or a list of characters, optionally negated with `!`. */
function gobwasClass(chars: string[], start: number): { source: string; next: number } | null {
  let i = start;
  const negated = chars[i] === '!';
  if (negated) i++;
  let body: string;
  if (chars[i + 1] === '-' && i + 2 < chars.length) {
    const [lo, hi] = [chars[i], chars[i + 2]];
    if (hi.codePointAt(0)! < lo.codePointAt(0)!) return null;
    body = `${literal(lo)}-${literal(hi)}`;
    i += 3;
  } else {
    const list: string[] = [];
    for (; i < chars.length && chars[i] !== ']'; i++) {
      if (chars[i] === '\\') i++;
      if (i < chars.length) list.push(chars[i]);
    }
    if (list.length === 0) return null;
    body = list.map(literal).join('');
  }
  if (chars[i] !== ']') return null;
  return { source: `[${negated ? '^' : ''}${body}]`, next: i + 1 };
}

/** gobwas/glob's grammar in RE2 syntax, or null where gobwas refuses the pattern. */
function translateGobwas(pattern: string): string | null {
  const chars = Array.from(pattern);
  let out = '';
  let depth = 0;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === '\\') {
      // A trailing backslash escapes nothing and is dropped, as gobwas's lexer does.
      if (i + 1 < chars.length) out += literal(chars[++i]);
    } else if (char === '*') {
      if (chars[i + 1] === '*') i++;
      out += '.*';
    } else if (char === '?') {
      out += '.';
    } else if (char === '[') {
      const range = gobwasClass(chars, i + 1);
      if (!range) return null;
      out += range.source;
      i = range.next - 1;
    } else if (char === '{') {
      depth++;
      out += '(?:';
    } else if (char === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (char === ',' && depth > 0) {
      out += '|';
    } else {
      out += literal(char);
    }
  }
  // gobwas's parser ends an unclosed `{a,b` at the end of the pattern as if it were closed.
  return out + ')'.repeat(depth);
}

/** One item of a filepath.Match class: a character, possibly escaped; `-` and `]` must be escaped. */
function filepathClassChar(chars: string[], i: number): { char: string; next: number } | null {
  let at = i;
  if (chars[at] === '\\') at++;
  else if (chars[at] === '-' || chars[at] === ']') return null;
  return at < chars.length ? { char: chars[at], next: at + 1 } : null;
}

function filepathClass(chars: string[], start: number): { source: string; next: number } | null {
  let i = start;
  const negated = chars[i] === '^';
  if (negated) i++;
  let body = '';
  while (body === '' || chars[i] !== ']') {
    if (i >= chars.length) return null;
    const lo = filepathClassChar(chars, i);
    if (!lo) return null;
    i = lo.next;
    if (chars[i] !== '-') {
      body += literal(lo.char);
      continue;
    }
    const hi = filepathClassChar(chars, i + 1);
    if (!hi || hi.char.codePointAt(0)! < lo.char.codePointAt(0)!) return null;
    body += `${literal(lo.char)}-${literal(hi.char)}`;
    i = hi.next;
  }
  return { source: `[${negated ? '^' : ''}${body}]`, next: i + 1 };
}

/** Go's filepath.Match grammar in RE2 syntax (`/` is the separator `*` and `?` do not cross), or null. */
function translateFilepath(pattern: string): string | null {
  const chars = Array.from(pattern);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === '\\') {
      if (i + 1 >= chars.length) return null;
      out += literal(chars[++i]);
    } else if (char === '*') {
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const range = filepathClass(chars, i + 1);
      if (!range) return null;
      out += range.source;
      i = range.next - 1;
    } else {
      out += literal(char);
    }
  }
  return out;
}

function compile(source: string | null, flags: number): GlobMatcher | null {
  if (source === null) return null;
  const RE2JS = linearRegexEngine();
  const re = RE2JS.compile(`^(?:${source})$`, RE2JS.DOTALL | flags);
  return { test: (text) => re.matches(text) };
}

/** A glob in gobwas/glob's syntax without separators; null when gobwas would refuse it. */
export function compileGlob(pattern: string): GlobMatcher | null {
  return compile(translateGobwas(pattern), 0);
}

/** A host pattern (filepath.Match), matched case-insensitively; null when it is malformed. */
export function compileHostGlob(pattern: string): GlobMatcher | null {
  return compile(translateFilepath(pattern), linearRegexEngine().CASE_INSENSITIVE);
}
