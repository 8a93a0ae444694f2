// One file's unified diff as git writes it and GitLab shows it (Gitaly runs `git diff` and GitLab keeps the patch
// from the first `@@`, without the `diff --git`/`index`/`---`/`+++` header): 3 lines of context, hunks closer than
// 6 lines merged, `\ No newline at end of file`, and git's default function-name context after the hunk header.
// The line diff itself is the `diff` library's (Myers, as git's default algorithm; an ambiguous change may align
// differently from git's, the hunks' content being the same).
import { structuredPatch } from 'diff';

const CONTEXT = 3;
/** git's buffer_is_binary: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE = 8000;
/** git's `char buf[80]` for the function-name line. */
const FUNC_NAME_MAX = 80;
/**
 * Gitlab::Git::Diff::SIZE_LIMIT: a file's patch over 100 KiB is too large and shown empty (`prune!`). Each changed
 * line costs at least 2 bytes of patch (`+` and a newline), so more edits than half of it cannot fit: the line diff
 * stops there (`maxEditLength`) rather than spend CPU on a patch nobody will see.
 */
export const SIZE_LIMIT = 100 * 1024;
/** Wall-clock bound on one file's line diff (the `diff` library's `timeout`), for a Worker's CPU budget. */
const DIFF_TIMEOUT_MS = 500;

export const isBinary = (data: Uint8Array) => data.subarray(0, BINARY_PROBE).includes(0);

/** Bytes as a string of one char per byte (latin1): lines compare byte for byte, whatever the encoding. */
const byteString = (data: Uint8Array) => {
  let out = '';
  for (let i = 0; i < data.length; i += 0x8000) out += String.fromCharCode(...data.subarray(i, i + 0x8000));
  return out;
};
const fromByteString = (s: string) => {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return new TextDecoder().decode(bytes);
};

/**
 * git's default funcname rule (xdiff-interface.c def_ff): a line starting with a letter, `_` or `$`, cut to 80
 * bytes, trailing white space dropped.
 */
function funcName(line: string): string | null {
  if (!/^[A-Za-z_$]/.test(line)) return null;
  return line.slice(0, FUNC_NAME_MAX).replace(/[\s]+$/, '');
}

/** git prints a range's start as the line before it when the range is empty, and leaves out a count of 1. */
const range = (start: number, count: number) => `${count === 0 ? start - 1 : start}${count === 1 ? '' : `,${count}`}`;

export interface FileDiff {
  /** The hunks, `''` when the texts are equal or the patch is over SIZE_LIMIT. */
  text: string;
  /** Lines added and removed (git's numstat), counted even when the text is left out. */
  additions: number;
  deletions: number;
}

/** A text's lines; a last line without a newline is marked apart (git counts `x` and `x\n` as different). */
const linesOf = (s: string) => {
  if (s === '') return [];
  const lines = (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
  if (!s.endsWith('\n')) lines[lines.length - 1] += '\0';
  return lines;
};

/**
 * A patch too large to compute: the counts from the lines the two sides share as multisets (an upper bound of
 * the common subsequence, so additions and deletions may come out lower than git's).
 */
function roughCounts(oldText: string, newText: string): FileDiff {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  const seen = new Map<string, number>();
  for (const line of before) seen.set(line, (seen.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of after) {
    const n = seen.get(line) ?? 0;
    if (n > 0) {
      common++;
      seen.set(line, n - 1);
    }
  }
  return { text: '', additions: after.length - common, deletions: before.length - common };
}

/** The diff of `old` → `new` (either empty for an added or deleted file). */
export function fileDiff(oldData: Uint8Array, newData: Uint8Array): FileDiff {
  const oldText = byteString(oldData);
  const newText = byteString(newData);
  // The shared-lines count bounds the edits from below: past half the limit the patch cannot fit, and Myers'
  // O((N+M)·D) would be spent for nothing. A diff that still takes too long (a CPU budget) is counted roughly too.
  const rough = roughCounts(oldText, newText);
  if (rough.additions + rough.deletions > SIZE_LIMIT / 2) return rough;
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, {
    context: CONTEXT,
    maxEditLength: SIZE_LIMIT / 2,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) return rough;
  const oldLines = oldText.split('\n');
  let out = '';
  let func = '';
  let additions = 0;
  let deletions = 0;
  // xdl_emit_diff looks back from each hunk's start to the previous hunk's (get_func_line), keeping the last
  // name found when it finds none.
  let searchedTo = -1;
  for (const h of patch.hunks) {
    const start = h.oldStart - 1;
    for (let l = start - 1; l > searchedTo && l >= 0; l--) {
      const name = funcName(oldLines[l] ?? '');
      if (name !== null) {
        func = name;
        break;
      }
    }
    searchedTo = start - 1;
    out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${func ? ` ${func}` : ''}\n`;
    for (const line of h.lines) {
      out += `${line}\n`;
      if (line[0] === '+') additions++;
      else if (line[0] === '-') deletions++;
    }
  }
  return { text: out.length >= SIZE_LIMIT ? '' : fromByteString(out), additions, deletions };
}
