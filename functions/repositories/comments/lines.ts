// Where a commit comment sits on its commit's diff, as GitLab 13.6 places it: commits.rb's POST walks the diff of
// `path` with Gitlab::Diff::Parser for the first line whose new-side position is `line` and whose type is
// `line_type`, and stores a LegacyDiffNote with that line's code (`<SHA-1 of the path>_<old pos>_<new pos>`);
// Entities::CommitNote reads `path`, `line` and `line_type` back from the code, finding the file by the path's hash and
// the first parsed line with the same code. Pure: the diffs come from the caller.
import { toHex } from '../../lib/crypto.ts';

/** A file's diff as Entities::Diff carries it (the hunks from the first `@@`). */
export interface DiffText {
  old_path: string;
  new_path: string;
  diff: string;
}

/** Gitlab::Diff::Line: its type (`new`, `old`, `match`, `<side>-nonewline`, null for context) and positions. */
export interface DiffLine {
  type: string | null;
  oldPos: number;
  newPos: number;
}

/** What Entities::CommitNote shows of a comment's place (all null for a comment on the whole commit). */
export interface CommentPosition {
  path: string | null;
  line: number | null;
  line_type: string | null;
}

export const NO_POSITION: CommentPosition = { path: null, line: null, line_type: null };

/**
 * Header lines the parser skips (Gitlab::Diff::Parser#filename?) whenever the last line's type is nil: before the
 * first hunk, and (GitLab's quirk, kept) after a context line, so a removed `-- a…` or added `++ b…` line there is
 * not a line of the diff.
 */
const FILENAME_PREFIXES = ['--- /dev/null', '+++ /dev/null', '--- a', '+++ b', '+++ a', '--- /tmp/diffy', '+++ /tmp/diffy'];

/** The first number after the first `sign` in a hunk header (`-12,3` -> 12), 0 when there is none (`rescue 0`). */
function headerPos(line: string, sign: '-' | '+'): number {
  const m = new RegExp(`\\${sign}([0-9]*)`).exec(line);
  return m ? Number(m[1] || '0') : 0;
}

/**
 * Gitlab::Diff::Parser#parse: every line with its positions. A hunk header is a `match` line unless it is the top of
 * the file (both starts at most 1); `\ No newline` takes the type of the last +/- line and moves no position.
 */
export function parseDiffLines(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldPos = 1;
  let newPos = 1;
  let type: string | null = null;
  let context: 'new' | 'old' | null = null;
  const lines = diff.split('\n');
  // Ruby's each_line: the text after the last newline is a line only when it is not empty.
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (type === null && FILENAME_PREFIXES.some((p) => line.startsWith(p))) continue;
    if (line.startsWith('@@ -')) {
      type = 'match';
      oldPos = headerPos(line, '-');
      newPos = headerPos(line, '+');
      if (oldPos <= 1 && newPos <= 1) continue;
      out.push({ type, oldPos, newPos });
      continue;
    }
    if (line[0] === '\\') {
      type = `${context ?? ''}-nonewline`;
      out.push({ type, oldPos, newPos });
      continue;
    }
    type = line[0] === '+' ? 'new' : line[0] === '-' ? 'old' : null;
    out.push({ type, oldPos, newPos });
    if (line[0] === '+') {
      newPos++;
      context = 'new';
    } else if (line[0] === '-') {
      oldPos++;
      context = 'old';
    } else {
      newPos++;
      oldPos++;
    }
  }
  return out;
}

/** Digest::SHA1.hexdigest of a path (its UTF-8 bytes). */
export async function pathHash(path: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(path))));
}

/** Gitlab::Git.diff_line_code. */
export const lineCodeOf = (hash: string, l: DiffLine) => `${hash}_${l.oldPos}_${l.newPos}`;

/**
 * The POST's search: in each diff whose new path is `path` (in order), the first line at new position `line` of type
 * `lineType`; its line code, or null (the comment is then on the whole commit).
 */
export async function commentLineCode(diffs: readonly DiffText[], path: string, line: number, lineType: 'new' | 'old'): Promise<string | null> {
  for (const d of diffs) {
    if (d.new_path !== path) continue;
    const found = parseDiffLines(d.diff).find((l) => l.newPos === line && l.type === lineType);
    if (found) return lineCodeOf(await pathHash(d.new_path), found);
  }
  return null;
}

/** Gitlab::Diff::Line#new_line: none for removed lines and meta lines. */
export const newLine = (l: DiffLine) => (['old', 'old-nonewline', 'match', 'new-nonewline'].includes(l.type ?? '') ? null : l.newPos);

/** Gitlab::Diff::Line#old_line: none for added lines and meta lines. */
export const oldLine = (l: DiffLine) => (['new', 'new-nonewline', 'match', 'old-nonewline'].includes(l.type ?? '') ? null : l.oldPos);

/**
 * A LegacyDiffNote's place from its line code: the first diff whose new path hashes to the code's first part, then
 * the first of its lines with the same code (Gitlab::Diff::File#line_for_line_code, on `file_path`).
 */
export async function commentPosition(diffs: readonly DiffText[], lineCode: string): Promise<CommentPosition> {
  const hash = lineCode.split('_')[0];
  for (const d of diffs) {
    if ((await pathHash(d.new_path)) !== hash) continue;
    const filePath = d.new_path || d.old_path;
    const fileHash = await pathHash(filePath);
    const l = parseDiffLines(d.diff).find((x) => lineCodeOf(fileHash, x) === lineCode);
    return { path: filePath, line: l ? newLine(l) : null, line_type: l ? l.type : null };
  }
  return NO_POSITION;
}
