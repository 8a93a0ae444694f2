// The pure blame (functions/repositories/blame/blame.ts): git's rules for passing lines to parents, on small histories
// given as nodes and blobs.
import { describe, expect, it } from 'vitest';
import { blame, blameGroups, blobLines, unchangedLines, type BlameNode } from '../../functions/repositories/blame/blame.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (l: { text: Uint8Array }) => new TextDecoder().decode(l.text);

/** A history from `{ commit: [generation, file text, parents...] }`; blobs are keyed by their text. */
function history(spec: Record<string, [number, string, ...string[]]>) {
  const nodes = new Map<string, BlameNode>();
  const blobs = new Map<string, Uint8Array>();
  for (const [oid, [generation, content, ...parents]] of Object.entries(spec)) {
    blobs.set(content, bytes(content));
    nodes.set(oid, { oid, generation, blob: content, parents: parents.map((node, i) => ({ parent: i + 1, node })) });
  }
  return { nodes, blobs };
}

const owners = (start: string, h: ReturnType<typeof history>) => blame(start, h.nodes, h.blobs).map((l) => `${l.commit}:${text(l)}`);

describe('blobLines', () => {
  it('splits on newlines, marking a last line without one', () => {
    expect(blobLines(bytes(''))).toEqual([]);
    expect(blobLines(bytes('a\nb\n'))).toEqual(['a', 'b']);
    const last = blobLines(bytes('a\nb'));
    expect(last[0]).toBe('a');
    expect(last[1]).not.toBe('b');
    expect(blobLines(bytes('\n\n'))).toEqual(['', '']);
  });
});

describe('unchangedLines', () => {
  it('maps each kept line to its old position, -1 for added lines', () => {
    expect([...unchangedLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])]).toEqual([0, -1, 2, -1]);
    expect([...unchangedLines([], ['a'])]).toEqual([-1]);
    expect([...unchangedLines(['a', 'b'], [])]).toEqual([]);
  });

  it('a line moved past others stays with the longer run', () => {
    expect([...unchangedLines(['m', 'a', 'b', 'c'], ['a', 'b', 'c', 'm'])]).toEqual([1, 2, 3, -1]);
  });

  // What `git diff -U0` answers for the same pairs: the runs of added lines slid as git slides them.
  it('slides runs of changes as git does (merged runs, the indent heuristic)', () => {
    // Myers alone keeps the first "}" and adds "  b" around it; git adds "  b", "}" as one run at the top.
    expect([...unchangedLines(['}', '  b'], ['  b', '}', '}', '  b'])]).toEqual([-1, -1, 0, 1]);
    // A paragraph inserted between blank-separated ones: the new text and the blank line after it.
    expect([...unchangedLines(['x', '', 'y'], ['x', '', 'new', '', 'y'])]).toEqual([0, 1, -1, -1, 2]);
    // A function inserted between two others: its lines and the blank line that follows.
    const before = ['f() {', '  one', '}', '', 'h() {', '  three', '}'];
    const after = ['f() {', '  one', '}', '', 'g() {', '  two', '}', '', 'h() {', '  three', '}'];
    expect([...unchangedLines(before, after)]).toEqual([0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6]);
  });

  it('a whole rewrite matches nothing', () => {
    expect([...unchangedLines(['a', 'b'], ['c', 'd'])]).toEqual([-1, -1]);
  });
});

describe('blame', () => {
  it('a root commit owns every line', () => {
    expect(owners('A', history({ A: [1, 'x\ny\n'] }))).toEqual(['A:x', 'A:y']);
  });

  it('edits on a line of history: inserted, kept and changed lines', () => {
    const h = history({ C: [3, 'one\nTWO\nthree\nfour\n', 'B'], B: [2, 'one\ntwo\nthree\nfour\n', 'A'], A: [1, 'one\ntwo\nthree\n'] });
    expect(owners('C', h)).toEqual(['A:one', 'C:TWO', 'A:three', 'B:four']);
  });

  it('a last line without newline differs from the same line with one', () => {
    const h = history({ B: [2, 'a\nb', 'A'], A: [1, 'a\nb\n'] });
    expect(owners('B', h)).toEqual(['A:a', 'B:b']);
  });

  it("a merge: each parent takes the lines it kept, the first parent first; the rest is the merge's", () => {
    const h = history({
      M: [3, 'base\nleft\nright\nfix\n', 'L', 'R'],
      L: [2, 'base\nleft\n', 'A'],
      R: [2, 'base\nright\n', 'A'],
      A: [1, 'base\n'],
    });
    expect(owners('M', h)).toEqual(['A:base', 'L:left', 'R:right', 'M:fix']);
  });

  it('a parent with the very same blob takes every line (even the second parent)', () => {
    const h = history({ M: [3, 'b\n', 'L', 'R'], L: [2, 'a\n', 'A'], R: [2, 'b\n', 'A'], A: [1, 'a\n'] });
    expect(owners('M', h)).toEqual(['R:b']);
  });

  it('a line reached through two children is attributed once', () => {
    const h = history({ M: [3, 'x\ny\nz\n', 'L', 'R'], L: [2, 'x\ny\n', 'A'], R: [2, 'x\nz\n', 'A'], A: [1, 'x\n'] });
    expect(owners('M', h)).toEqual(['A:x', 'L:y', 'R:z']);
  });

  it('a commit whose parents lack the file introduced all of it', () => {
    const h = history({ B: [2, 'p\nq\n'] });
    expect(owners('B', h)).toEqual(['B:p', 'B:q']);
  });

  it('an empty file has no lines', () => {
    expect(blame('A', history({ A: [1, ''] }).nodes, history({ A: [1, ''] }).blobs)).toEqual([]);
  });
});

describe('blameGroups', () => {
  it('groups consecutive lines of one commit', () => {
    const lines = [{ commit: 'a' }, { commit: 'a' }, { commit: 'b' }, { commit: 'a' }];
    expect(blameGroups(lines).map((g) => [g.commit, g.lines.length])).toEqual([
      ['a', 2],
      ['b', 1],
      ['a', 1],
    ]);
  });
});
