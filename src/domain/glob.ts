// Glob patterns as Forgejo matches them, compiled to regular expressions: branch filters follow gobwas/glob
// without separators (`*`, `?`, `[a-z]`, `[!a-z]`, `{a,b}`, `\` escapes; `*` crosses `/`), host patterns
// follow Go's path/filepath.Match (`*`, `?`, `[a-z]`, `[^a-z]`, `\`), where no host name holds a separator.

const SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const escapeChar = (char: string) => char.replace(SPECIAL, '\\$&');

interface Dialect {
  negation: '!' | '^';
  braces: boolean;
}

function translate(pattern: string, dialect: Dialect): string | null {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      if (i + 1 >= pattern.length) return null;
      out += escapeChar(pattern[++i]);
    } else if (char === '*') {
      while (pattern[i + 1] === '*') i++;
      out += '[\\s\\S]*';
    } else if (char === '?') {
      out += '[\\s\\S]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) return null;
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith(dialect.negation);
      if (negated) body = body.slice(1);
      if (body === '') return null;
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (dialect.braces && char === '{') {
      depth++;
      out += '(?:';
    } else if (dialect.braces && char === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (dialect.braces && char === ',' && depth > 0) {
      out += '|';
    } else {
      out += escapeChar(char);
    }
  }
  return depth === 0 ? out : null;
}

function compile(pattern: string, dialect: Dialect, flags = ''): RegExp | null {
  const source = translate(pattern, dialect);
  if (source === null) return null;
  try {
    return new RegExp(`^${source}$`, flags);
  } catch {
    return null;
  }
}

/** A branch filter (gobwas/glob); null when the pattern does not compile, which matches nothing. */
export function compileBranchGlob(pattern: string): RegExp | null {
  return compile(pattern, { negation: '!', braces: true });
}

/** A host pattern (filepath.Match), matched case-insensitively. */
export function compileHostGlob(pattern: string): RegExp | null {
  return compile(pattern, { negation: '^', braces: false }, 'i');
}
