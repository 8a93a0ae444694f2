// globMatch is Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB (what GitLab 13.6's
// `rules:exists` calls), over RE2: the expected answers are Ruby's; the pathological globs must stay linear.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatch, MAX_BRACE_EXPANSIONS } from '../../../functions/ci/glob.ts';
import { matchesRef } from '../../../functions/repositories/writes/push-access.ts';

describe('globMatch (File.fnmatch? PATHNAME | DOTMATCH | EXTGLOB)', () => {
  it.each([
    ['*.md', 'README.md', true],
    ['*.md', 'docs/a.md', false],
    ['**/*.md', 'README.md', true],
    ['**/*.md', 'docs/a/b.md', true],
    ['**/**/*.md', 'docs/b.md', true],
    ['src/**/*.js', 'src/a.js', true],
    ['src/**/*.js', 'src/x/y/a.js', true],
    ['src/**/*.js', 'lib/src/a.js', false],
    ['a**/b', 'ax/b', true],
    ['a**/b', 'a/x/b', false],
    ['src/**', 'src/a', true],
    ['src/**', 'src/a/b', false],
    ['*', '.gitignore', true],
    ['**/*', '.hidden/.x', true],
    ['?.txt', 'a.txt', true],
    ['a?b', 'a/b', false],
    ['a*b', 'a/b', false],
    // EXTGLOB braces; a comma outside braces is a character.
    ['{a,b}', 'a', true],
    ['{a,b}', 'b', true],
    ['{a,b}', '{a,b}', false],
    ['a,b', 'a', false],
    ['a,b', 'a,b', true],
    ['x{a,{b,c}d}', 'xcd', true],
    ['x{a,{b,c}d}', 'xa', true],
    ['x{a,{b,c}d}', 'xd', false],
    ['a{}b', 'ab', true],
    ['{a,}b', 'b', true],
    ['a}b', 'a}b', true],
    // An unmatched `{` expands to nothing: no path matches, not even the same text.
    ['src/{a', 'src/{a', false],
    ['src/{a', 'src/a', false],
    // Bracket expressions.
    ['[12].txt', '1.txt', true],
    ['[12].txt', '3.txt', false],
    ['[a-c]', 'b', true],
    ['[!a-c]', 'd', true],
    ['[^a-c]', 'b', false],
    ['x[!a]y', 'x/y', false],
    ['x[!-~]y', 'x/y', false],
    ['[z-a]', 'z', true],
    ['[z-a]', 'a', true],
    ['[z-a]', 'm', false],
    ['[a-]', '-', true],
    ['[]]', ']', false],
    ['[!]', 'q', true],
    ['[12', '[12', false],
    ['[\\]]', ']', true],
    // Escapes: literal metacharacters; a trailing backslash is ignored.
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['a\\', 'a', true],
    ['a.b', 'axb', false],
    ['(a|b)+', '(a|b)+', true],
    ['ü/*', 'ü/ö', true],
  ])('%j against %j: %s', (glob, path, expected) => {
    expect(globMatch(glob, path)).toBe(expected);
  });

  it('a glob expanding past the bound matches nothing', () => {
    const glob = '{a,b}'.repeat(Math.ceil(Math.log2(MAX_BRACE_EXPANSIONS)) + 1);
    expect(globMatch(glob, 'a'.repeat(glob.length / 5))).toBe(false);
    expect(globMatch('{a,b}'.repeat(4), 'abab')).toBe(true);
  });

  it('stays linear on pathological globs', () => {
    const deep = `${Array.from({ length: 30 }, (_, i) => `d${i}`).join('/')}/y`;
    const started = performance.now();
    expect(globMatch(`${'**/'.repeat(10)}x`, deep)).toBe(false);
    expect(globMatch(`${'**/a'.repeat(10)}x`, `${'a/'.repeat(30)}ay`)).toBe(false);
    expect(globMatch(`${'*a'.repeat(20)}b`, 'a'.repeat(200))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('never throws, whatever the glob', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('*', '?', '[', ']', '{', '}', ',', '\\', '/', '!', '-', 'a', '.') }), fc.string(), (glob, path) => {
        expect(typeof globMatch(glob, path)).toBe('boolean');
      }),
    );
  });
});

describe('matchesRef (protected branch and tag wildcards)', () => {
  it.each([
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/a/b', true],
    ['release/*', 'releases/1', false],
    ['*-stable', '13-6-stable', true],
    ['v1.*', 'v1x2', false],
    ['v1.*', 'v1.2', true],
    ['master', 'master', true],
  ])('%j against %j: %s', (pattern, name, expected) => {
    expect(matchesRef(pattern, name)).toBe(expected);
  });

  it('stays linear on `*a*a*a*a*a*a*a*a*b`', () => {
    const started = performance.now();
    expect(matchesRef('*a*a*a*a*a*a*a*a*b', 'a'.repeat(250))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
