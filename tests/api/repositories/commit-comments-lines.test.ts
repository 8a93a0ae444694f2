// The pure rules behind a commit comment's place (Gitlab::Diff::Parser, the POST's line search, LegacyDiffNote's
// read-back): positions, hunk headers, `\ No newline` lines and GitLab's quirks, kept on purpose.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commentLineCode, commentPosition, parseDiffLines } from '../../../functions/repositories/comments/lines.ts';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const file = (diff: string, new_path = 'a.txt', old_path = new_path) => ({ old_path, new_path, diff });

describe('parseDiffLines (Gitlab::Diff::Parser)', () => {
  it('numbers context, removed and added lines; a hunk at the top of the file has no match line', () => {
    expect(parseDiffLines('@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n')).toEqual([
      { type: null, oldPos: 1, newPos: 1 },
      { type: 'old', oldPos: 2, newPos: 2 },
      { type: 'new', oldPos: 3, newPos: 2 },
      { type: null, oldPos: 3, newPos: 3 },
      { type: 'new', oldPos: 4, newPos: 4 },
    ]);
  });

  it('a later hunk is a match line at its header positions; a new file counts from old 0', () => {
    expect(parseDiffLines('@@ -10,2 +11,3 @@ def x\n a\n+b\n c\n')[0]).toEqual({ type: 'match', oldPos: 10, newPos: 11 });
    expect(parseDiffLines('@@ -0,0 +1,2 @@\n+x\n+y\n')).toEqual([
      { type: 'new', oldPos: 0, newPos: 1 },
      { type: 'new', oldPos: 0, newPos: 2 },
    ]);
  });

  it('`\\ No newline` takes the side of the last +/- line and moves nothing', () => {
    expect(parseDiffLines('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n')).toEqual([
      { type: 'old', oldPos: 1, newPos: 1 },
      { type: 'old-nonewline', oldPos: 2, newPos: 1 },
      { type: 'new', oldPos: 2, newPos: 1 },
    ]);
    expect(parseDiffLines('@@ -1 +1 @@\n a\n\\ No newline at end of file\n')[1]!.type).toBe('-nonewline');
  });

  it('after a context line, a line that looks like a file header is skipped (GitLab skips it too)', () => {
    expect(parseDiffLines('@@ -1,2 +1,2 @@\n x\n--- a\n+++ b\n').map((l) => l.type)).toEqual([null]);
    expect(parseDiffLines('@@ -1,2 +1,2 @@\n-x\n--- a\n').map((l) => l.type)).toEqual(['old', 'old']);
  });
});

describe('placing and reading back', () => {
  const diffs = [file('@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n', 'README.md')];

  it('the first line of the file at that new position and type; none for context lines or other files', async () => {
    expect(await commentLineCode(diffs, 'README.md', 2, 'new')).toBe(`${sha1('README.md')}_3_2`);
    expect(await commentLineCode(diffs, 'README.md', 2, 'old')).toBe(`${sha1('README.md')}_2_2`);
    expect(await commentLineCode(diffs, 'README.md', 1, 'new')).toBeNull();
    expect(await commentLineCode(diffs, 'other.md', 2, 'new')).toBeNull();
  });

  it('reads path, line (none for removed lines) and line_type back from the code', async () => {
    expect(await commentPosition(diffs, `${sha1('README.md')}_3_2`)).toEqual({ path: 'README.md', line: 2, line_type: 'new' });
    expect(await commentPosition(diffs, `${sha1('README.md')}_2_2`)).toEqual({ path: 'README.md', line: null, line_type: 'old' });
    expect(await commentPosition(diffs, `${sha1('gone.md')}_1_1`)).toEqual({ path: null, line: null, line_type: null });
    // The file is there but no line has that code: the path alone.
    expect(await commentPosition(diffs, `${sha1('README.md')}_9_9`)).toEqual({ path: 'README.md', line: null, line_type: null });
  });

  it('a line sharing its code with the `\\ No newline` line before it reads back as that line (first match)', async () => {
    const d = [file('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n')];
    const code = await commentLineCode(d, 'a.txt', 1, 'new');
    expect(code).toBe(`${sha1('a.txt')}_2_1`);
    expect(await commentPosition(d, code!)).toEqual({ path: 'a.txt', line: null, line_type: 'old-nonewline' });
  });
});
