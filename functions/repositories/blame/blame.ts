// `git blame` as pure logic over a file's history (the commits where it changed, each with its blob, and which
// parent hands lines down to which): every line of the final version is attributed to the commit that introduced
// it. The rules are git's (blame.c pass_blame): a commit whose parent holds the very same blob passes every line to
// the first such parent; otherwise each parent in turn takes the lines its diff against the commit leaves unchanged,
// and the lines no parent takes were introduced by the commit. Renames are not followed (git's find_rename): a file
// that appears under a new path is blamed on the commit that moved it. The line diff is the `diff` library's Myers
// (git's default algorithm), with git's sliding of changed runs after it (slide.ts); a change that two
// minimal diffs can describe differently (a moved block among repeated lines) may still align otherwise than git's.
import { diffArrays } from 'diff';
import { compactChanges } from './slide.ts';

export interface BlameNode {
  oid: string;
  /** The commit graph's generation number: every parent's is lower, so children are processed first. */
  generation: number;
  /** The file's blob in this commit. */
  blob: string;
  /** The nodes reached through this commit's parents (1-based parent number), in parent order. */
  parents: readonly { parent: number; node: string }[];
}

export interface BlameLine {
  /** The line's bytes without its newline. */
  text: Uint8Array;
  /** The commit that introduced it. */
  commit: string;
}

const NO_NEWLINE = '\u0100';

/**
 * A blob's lines as strings of one char per byte (lines compare byte for byte, whatever the encoding); a last line
 * without a newline is marked (git counts `x` and `x\n` as different lines).
 */
export function blobLines(data: Uint8Array): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i <= data.length; i++) {
    if (i === data.length || data[i] === 0x0a) {
      if (i === data.length && i === start) break;
      let line = '';
      for (let j = start; j < i; j += 0x8000) line += String.fromCharCode(...data.subarray(j, Math.min(i, j + 0x8000)));
      lines.push(i === data.length ? line + NO_NEWLINE : line);
      start = i + 1;
    }
  }
  return lines;
}

const lineBytes = (line: string) => {
  const length = line.endsWith(NO_NEWLINE) ? line.length - 1 : line.length;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = line.charCodeAt(i);
  return bytes;
};

/**
 * For each line of `after`, the line of `before` it is unchanged from (-1: added). As git's xdiff prepares a diff,
 * the common head and tail are set aside (xdl_trim_ends), and so are lines found on one side only, which cannot be
 * common (xdl_cleanup_records), before the Myers diff runs on what is left: a file rewritten from scratch costs a
 * linear pass, not a quadratic diff. The runs of changes are then slid as git slides them (slide.ts), so that
 * of two equal lines the one git credits is the one kept.
 */
export function unchangedLines(before: readonly string[], after: readonly string[]): Int32Array {
  const removed = new Uint8Array(before.length).fill(1);
  const added = new Uint8Array(after.length).fill(1);
  // The common head and tail are unchanged (xdl_trim_ends); only the middle is diffed.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) removed[head] = added[head++] = 0;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    removed[before.length - 1 - tail] = added[after.length - 1 - tail] = 0;
    tail++;
  }
  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);
  const inBefore = new Set(oldMiddle);
  const inAfter = new Set(newMiddle);
  const keep = (lines: readonly string[], other: Set<string>) => {
    const index: number[] = [];
    const kept: string[] = [];
    lines.forEach((line, i) => {
      if (other.has(line)) {
        index.push(head + i);
        kept.push(line);
      }
    });
    return { index, kept };
  };
  const { index: oldIndex, kept: oldKept } = keep(oldMiddle, inAfter);
  const { index: newIndex, kept: newKept } = keep(newMiddle, inBefore);
  let o = 0;
  let n = 0;
  for (const change of diffArrays(oldKept, newKept)) {
    const count = change.count ?? change.value.length;
    if (change.added) n += count;
    else if (change.removed) o += count;
    else
      for (let k = 0; k < count; k++) {
        removed[oldIndex[o++]!] = 0;
        added[newIndex[n++]!] = 0;
      }
  }
  compactChanges(before, removed, after, added, (line) => (line.endsWith(NO_NEWLINE) ? line.slice(0, -1) : line));
  // The unchanged lines of both sides pair up in order.
  const map = new Int32Array(after.length).fill(-1);
  let i = 0;
  for (let j = 0; j < after.length; j++) {
    if (added[j]) continue;
    while (removed[i]) i++;
    map[j] = i++;
  }
  return map;
}

/**
 * The blame of the file at `start` (a node of `nodes`): one entry per line of its blob, in order. `blobs` holds
 * every node's blob.
 */
export function blame(start: string, nodes: ReadonlyMap<string, BlameNode>, blobs: ReadonlyMap<string, Uint8Array>): BlameLine[] {
  const lines = new Map<string, string[]>();
  const linesOf = (blob: string) => {
    let found = lines.get(blob);
    if (!found) {
      const data = blobs.get(blob);
      if (!data) throw new Error(`blame: blob ${blob} missing`);
      lines.set(blob, (found = blobLines(data)));
    }
    return found;
  };
  const node = (oid: string) => {
    const found = nodes.get(oid);
    if (!found) throw new Error(`blame: commit ${oid} missing`);
    return found;
  };

  const final = linesOf(node(start).blob);
  const owners: string[] = new Array<string>(final.length);
  // The lines each node is suspected of: [line of the final version, line in the node's own blob].
  const suspects = new Map<string, [number, number][]>([[start, final.map((_, i) => [i, i])]]);
  const hand = (oid: string, entry: [number, number]) => {
    const list = suspects.get(oid);
    if (list) list.push(entry);
    else suspects.set(oid, [entry]);
  };
  const diffs = new Map<string, Int32Array>();

  const order = [...nodes.values()].sort((a, b) => b.generation - a.generation);
  for (const commit of order) {
    const entries = suspects.get(commit.oid);
    if (!entries) continue;
    suspects.delete(commit.oid);
    const parents = [...commit.parents].sort((a, b) => a.parent - b.parent);
    const same = parents.find((p) => node(p.node).blob === commit.blob);
    if (same) {
      for (const entry of entries) hand(same.node, entry);
      continue;
    }
    let remaining = entries;
    for (const p of parents) {
      if (!remaining.length) break;
      const parentBlob = node(p.node).blob;
      const key = `${parentBlob}:${commit.blob}`;
      let map = diffs.get(key);
      if (!map) diffs.set(key, (map = unchangedLines(linesOf(parentBlob), linesOf(commit.blob))));
      const kept: [number, number][] = [];
      for (const [finalLine, own] of remaining) {
        const there = map[own]!;
        if (there >= 0) hand(p.node, [finalLine, there]);
        else kept.push([finalLine, own]);
      }
      remaining = kept;
    }
    for (const [finalLine] of remaining) owners[finalLine] = commit.oid;
  }
  return final.map((line, i) => {
    const commit = owners[i];
    if (commit === undefined) throw new Error('blame: a line was left unattributed');
    return { text: lineBytes(line), commit };
  });
}

/** Gitlab::Blame#groups: consecutive lines of one commit form a group. */
export function blameGroups<T extends { commit: string }>(lines: readonly T[]): { commit: string; lines: T[] }[] {
  const groups: { commit: string; lines: T[] }[] = [];
  for (const line of lines) {
    const last = groups.at(-1);
    if (last && last.commit === line.commit) last.lines.push(line);
    else groups.push({ commit: line.commit, lines: [line] });
  }
  return groups;
}
