// Glob semantics: gobwas/glob without separators (webhook branch filters, unadopted-repository queries) and
// Go's filepath.Match (host patterns of allow lists), and matching that cannot backtrack.
import { compileGlob, compileHostGlob } from '../../src/domain/glob.ts';
import { branchFilterMatches, branchFilterProblem } from '../../src/domain/hook-event.ts';

describe('gobwas/glob, as Forgejo compiles branch filters (no separators)', () => {
  it.each([
    ['*', '', true],
    ['*', 'feature/x/y', true],
    ['**', 'a/b/c', true],
    ['feature/*', 'feature/x/y', true],
    ['feature/*', 'feat', false],
    ['orph*', 'xorphan', false],
    ['*-rc', 'v1-rc', true],
    ['?', 'a', true],
    ['?', '', false],
    ['?', 'ab', false],
    ['?', 'é', true],
    ['?', '😀', true],
    ['a?c', 'a/c', true],
    ['[abc]', 'b', true],
    ['[abc]', 'd', false],
    ['[!abc]', 'd', true],
    ['[!abc]', 'a', false],
    ['[!!]', '!', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['[!a-c]', 'd', true],
    ['[!a-c]', 'b', false],
    ['[^a]', '^', true],
    ['[^a]', 'b', false],
    ['[*]', '*', true],
    ['[*]', 'x', false],
    ['[\\]]', ']', true],
    ['[ab-]', '-', true],
    ['[-a]', '-', true],
    ['{main,master}', 'master', true],
    ['{main,master}', 'mai', false],
    ['release/{v1,v2}.*', 'release/v2.3', true],
    ['{a,{b,c}d}', 'cd', true],
    ['{a,{b,c}d}', 'ad', false],
    ['{,x}y', 'y', true],
    ['{a,b', 'b', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['\\{a,b\\}', '{a,b}', true],
    ['x\\', 'x', true],
    ['a,b', 'a,b', true],
    ['a}', 'a}', true],
    ['a]', 'a]', true],
    ['.', 'x', false],
    ['a+', 'aa', false],
    ['(a|b)', '(a|b)', true],
    ['^a$', '^a$', true],
    ['\\d', 'd', true],
  ])('%s matches %j: %s', (pattern, text, matches) => {
    expect(compileGlob(pattern)?.test(text)).toBe(matches);
  });

  it.each(['[', '[]', '[!]', '[a-z0-9]', '[z-a]', 'x[ab', '[a-', '[\\]', '{a,[}'])(
    'refuses %j as gobwas does',
    (pattern) => {
      expect(compileGlob(pattern)).toBeNull();
    },
  );

  it('lets everything through an empty filter or `*`, and nothing through a filter that does not compile', () => {
    expect(branchFilterMatches('', 'any/branch')).toBe(true);
    expect(branchFilterMatches('*', 'any/branch')).toBe(true);
    expect(branchFilterMatches('[', '[')).toBe(false);
  });

  it('states why a filter cannot be stored: not a glob, or too long', () => {
    expect(branchFilterProblem('{main,release/*}')).toBeNull();
    expect(branchFilterProblem('release-[')).toMatch(/not a valid glob pattern/);
    expect(branchFilterProblem('a'.repeat(1025))).toMatch(/longer than 1024 characters/);
  });

  it('matches in time linear in the input, however many stars the pattern has', () => {
    const glob = compileGlob(`${'*a'.repeat(30)}*b`)!;
    const started = performance.now();
    expect(glob.test('a'.repeat(20_000))).toBe(false);
    expect(glob.test(`${'a'.repeat(20_000)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("Go's filepath.Match, as host patterns are matched", () => {
  it.each([
    ['*.example.com', 'hooks.example.com', true],
    ['*.example.com', 'HOOKS.Example.COM', true],
    ['*.example.com', 'example.com', false],
    ['*', 'a/b', false],
    ['?', 'a', true],
    ['?', '/', false],
    ['[a-c0-9]x', '5x', true],
    ['[a-c0-9]x', 'dx', false],
    ['[^a]x', 'bx', true],
    ['[^a]x', 'ax', false],
    ['[!a]x', '!x', true],
    ['[\\-]', '-', true],
    ['a\\.b', 'a.b', true],
    ['{a,b}', '{a,b}', true],
  ])('%s matches %j: %s', (pattern, text, matches) => {
    expect(compileHostGlob(pattern)?.test(text)).toBe(matches);
  });

  it.each(['a\\', '[]', '[a', '[-]', '[a-]'])('refuses %j', (pattern) => {
    expect(compileHostGlob(pattern)).toBeNull();
  });
});
