// Rename detection as git's diffcore-rename does it, for the diffs GitLab shows, at git's own default threshold
// (`git diff -M`, 50%; the contract asks for git's behaviour, where some Gitaly versions pass 30%): a deleted and an
// added file pair up when their ids are equal (exact renames first), or when their content is at least 50% similar. Similarity is git's estimate (diffcore-delta.c): both files cut into
// chunks ending at a newline or 64 bytes long, and the bytes of the chunks they share counted against the larger
// file's size.
import type { DiffSide } from '../../../db/queries/repositories/diffs.ts';

/** git's default --find-renames threshold. */
export const RENAME_THRESHOLD = 0.5;
/** How many unmatched additions × deletions are scored by content at most (git's diff.renameLimit is per side). */
const MAX_SIMILARITY_PAIRS = 100 * 100;
const CHUNK = 64;

export interface FileChange {
  oldPath: string | null;
  newPath: string | null;
  old: DiffSide | null;
  new: DiffSide | null;
}

/** Regular files and symlinks take part in renames; submodules do not. */
const renamable = (s: DiffSide | null): s is DiffSide & { data: Uint8Array } => s !== null && s.data !== null && s.data.length > 0;

/** Bytes per chunk, keyed by the chunk's bytes; kept per blob, as each file is scored against many. */
const counted = new WeakMap<Uint8Array, Map<string, number>>();
function chunkCounts(data: Uint8Array): Map<string, number> {
  const known = counted.get(data);
  if (known) return known;
  const counts = new Map<string, number>();
  counted.set(data, counts);
  let start = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0x0a || i - start + 1 === CHUNK) {
      const key = String.fromCharCode(...data.subarray(start, i + 1));
      counts.set(key, (counts.get(key) ?? 0) + i + 1 - start);
      start = i + 1;
    }
  }
  if (start < data.length) {
    const key = String.fromCharCode(...data.subarray(start));
    counts.set(key, (counts.get(key) ?? 0) + data.length - start);
  }
  return counts;
}

/** git's estimate_similarity as a fraction: the bytes of `src` that survive in `dst` over the larger size. */
export function similarity(src: Uint8Array, dst: Uint8Array): number {
  const max = Math.max(src.length, dst.length);
  if (!max || Math.min(src.length, dst.length) / max < RENAME_THRESHOLD) return 0;
  const a = chunkCounts(src);
  let copied = 0;
  for (const [key, n] of chunkCounts(dst)) copied += Math.min(n, a.get(key) ?? 0);
  return copied / max;
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Pairs deletions with additions into renames (at the addition's place in the list, as git's output has them).
 * Exact matches first (a same-named source preferred), then the best-scoring pairs above the threshold, greedily,
 * each deletion used once.
 */
export function detectRenames(changes: FileChange[]): FileChange[] {
  const deleted = changes.filter((c) => c.new === null && renamable(c.old));
  const added = changes.filter((c) => c.old === null && renamable(c.new));
  if (!deleted.length || !added.length) return changes;
  const source = new Map<FileChange, FileChange>();
  const used = new Set<FileChange>();
  for (const dst of added) {
    const same = deleted.filter((d) => !used.has(d) && d.old!.oid === dst.new!.oid);
    const pick = same.find((d) => basename(d.oldPath!) === basename(dst.newPath!)) ?? same[0];
    if (pick) {
      source.set(dst, pick);
      used.add(pick);
    }
  }
  const srcLeft = deleted.filter((d) => !used.has(d));
  const dstLeft = added.filter((a) => !source.has(a));
  if (srcLeft.length && dstLeft.length && srcLeft.length * dstLeft.length <= MAX_SIMILARITY_PAIRS) {
    const scored: { src: FileChange; dst: FileChange; score: number; sameName: boolean }[] = [];
    for (const dst of dstLeft) {
      for (const src of srcLeft) {
        const score = similarity(src.old!.data!, dst.new!.data!);
        if (score >= RENAME_THRESHOLD) scored.push({ src, dst, score, sameName: basename(src.oldPath!) === basename(dst.newPath!) });
      }
    }
    scored.sort((x, y) => y.score - x.score || Number(y.sameName) - Number(x.sameName));
    for (const s of scored) {
      if (used.has(s.src) || source.has(s.dst)) continue;
      source.set(s.dst, s.src);
      used.add(s.src);
    }
  }
  const out: FileChange[] = [];
  for (const c of changes) {
    if (used.has(c)) continue;
    const src = source.get(c);
    out.push(src ? { oldPath: src.oldPath, newPath: c.newPath, old: src.old, new: c.new } : c);
  }
  return out;
}
