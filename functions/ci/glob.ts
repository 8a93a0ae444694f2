// Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, as GitLab 13.6 matches `rules:exists` globs
// against a commit's paths. A glob comes from a user's `.gitlab-ci.yml`, so it is translated to an RE2 pattern
// (re2js: linear time, whatever the glob) and never to a JavaScript RegExp, which backtracks.
//
// The translation follows Ruby's file.c and dir.c:
// - EXTGLOB first expands braces as ruby_brace_expand does (`{a,b}` nested, `\` escapes): the glob matches when one
//   expansion does. A `{` without its `}` expands to nothing, so the glob matches no path.
// - `*` is any run within a directory, `?` one character but `/` (PATHNAME); a leading dot needs nothing (DOTMATCH).
// - `**/` at the start of a directory is any number of whole directories (consecutive ones count once); elsewhere
//   `**` is `*`.
// - `[...]` is one character but `/`, of a set of characters and ranges, negated by a leading `!` or `^`; a reversed
//   range holds its two ends; an unterminated class never matches.
// - `\` makes the next character literal; a trailing one is ignored.
import { RE2JS } from 're2js';
import { BoundedCache } from '../lib/bounded-cache.ts';

/** Expansions one glob may have: `{a,b}` twenty times over is a million patterns; past this the glob matches nothing. */
export const MAX_BRACE_EXPANSIONS = 256;

const SLASH = 0x2f;

/** ruby_brace_expand into `out`; false when the expansions would pass `limit`. */
function expandBraces(s: string, out: string[], limit: number): boolean {
  let lbrace = -1;
  let rbrace = -1;
  let nest = 0;
  for (let p = 0; p < s.length; p++) {
    if (s[p] === '{' && nest++ === 0) lbrace = p;
    if (s[p] === '}' && lbrace >= 0 && --nest === 0) {
      rbrace = p;
      break;
    }
    if (s[p] === '\\' && ++p >= s.length) break;
  }
  if (lbrace < 0) {
    if (out.length >= limit) return false;
    out.push(s);
    return true;
  }
  // An unmatched `{`: Ruby calls the matcher with nothing.
  if (rbrace < 0) return true;
  const prefix = s.slice(0, lbrace);
  const suffix = s.slice(rbrace + 1);
  let p = lbrace;
  while (p < rbrace) {
    const start = ++p;
    let depth = 0;
    while (p < rbrace && !(s[p] === ',' && depth === 0)) {
      if (s[p] === '{') depth++;
      if (s[p] === '}') depth--;
      if (s[p] === '\\' && ++p === rbrace) break;
      p++;
    }
    if (!expandBraces(prefix + s.slice(start, p) + suffix, out, limit)) return false;
  }
  return true;
}

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;

/** A bracket expression's ranges as an RE2 class that never holds `/` (PATHNAME). */
function classPattern(ranges: ReadonlyArray<readonly [number, number]>, negated: boolean): string {
  if (negated) return `[^${ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}/]`;
  const parts: string[] = [];
  for (const [lo, hi] of ranges) {
    // `/` taken out of a range that holds it.
    const pieces: Array<[number, number]> =
      lo <= SLASH && SLASH <= hi
        ? [
            [lo, SLASH - 1],
            [SLASH + 1, hi],
          ]
        : [[lo, hi]];
    for (const [a, b] of pieces) if (a <= b) parts.push(a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
  }
  return parts.length ? `[${parts.join('')}]` : '';
}

/** file.c's bracket(): the class starting after `[` at `i`, and where the glob continues; null when unterminated. */
function bracket(glob: string, i: number): { pattern: string; end: number } | null {
  let negated = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negated = true;
    i++;
  }
  const ranges: Array<readonly [number, number]> = [];
  while (glob[i] !== ']') {
    let t1 = i;
    if (glob[t1] === '\\') t1++;
    if (t1 >= glob.length) return null;
    const c1 = glob.codePointAt(t1)!;
    i = t1 + (c1 > 0xffff ? 2 : 1);
    if (i >= glob.length) return null;
    if (glob[i] === '-' && glob[i + 1] !== ']') {
      let t2 = i + 1;
      if (glob[t2] === '\\') t2++;
      if (t2 >= glob.length) return null;
      const c2 = glob.codePointAt(t2)!;
      i = t2 + (c2 > 0xffff ? 2 : 1);
      // A reversed range still holds its two ends (bracket() compares them before the range).
      ranges.push(...(c1 <= c2 ? [[c1, c2] as const] : [[c1, c1] as const, [c2, c2] as const]));
    } else ranges.push([c1, c1]);
  }
  return { pattern: classPattern(ranges, negated), end: i + 1 };
}

/** One brace-free glob as an RE2 pattern; null when it can match nothing (an unterminated or empty class). */
function translate(glob: string): string | null {
  let out = '';
  let segmentStart = true;
  let i = 0;
  while (i < glob.length) {
    if (segmentStart && glob.startsWith('**/', i)) {
      while (glob.startsWith('**/', i)) i += 3;
      out += '(?:[^/]*/)*';
      segmentStart = false;
      continue;
    }
    segmentStart = false;
    const c = glob[i]!;
    if (c === '*') {
      while (glob[i] === '*') i++;
      out += '[^/]*';
      continue;
    }
    if (c === '?') {
      out += '[^/]';
      i++;
      continue;
    }
    if (c === '[') {
      const cls = bracket(glob, i + 1);
      if (!cls || !cls.pattern) return null;
      out += cls.pattern;
      i = cls.end;
      continue;
    }
    if (c === '\\' && ++i >= glob.length) break;
    const cp = glob.codePointAt(i)!;
    out += hex(cp);
    i += cp > 0xffff ? 2 : 1;
    // An escaped `/` separates directories as well.
    if (cp === SLASH) segmentStart = true;
  }
  return out;
}

/** The compiled glob, or null when no path can match it. */
function compile(glob: string): RE2JS | null {
  const expansions: string[] = [];
  if (!expandBraces(glob, expansions, MAX_BRACE_EXPANSIONS)) return null;
  const patterns = [...new Set(expansions.map(translate).filter((p): p is string => p !== null))];
  return patterns.length ? RE2JS.compile(`(?:${patterns.join('|')})`) : null;
}

const compiled = new BoundedCache<string, RE2JS | null>(512);

/** File.fnmatch?(glob, path, File::FNM_PATHNAME | File::FNM_DOTMATCH | File::FNM_EXTGLOB). */
export function globMatch(glob: string, path: string): boolean {
  return compiled.get(glob, compile)?.matches(path) ?? false;
}
