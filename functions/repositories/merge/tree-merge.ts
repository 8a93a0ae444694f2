// A three-way merge of trees, as Gitaly's cherry-pick and revert do it (libgit2's merge_trees with the "theirs"
// changes applied on "ours"): every path that differs between the base and theirs is looked at in ours. Unchanged
// in ours -> theirs' version; the same in ours and theirs -> kept; changed on both sides -> a line merge of two
// regular files (content-merge.ts), anything else (modify/delete, symlinks, submodules, a file where the other side
// has a directory, two different modes) is a conflict. Renames are not detected (libgit2 pairs them at 50%; a
// change to a renamed file is a modify/delete conflict here).
import type { ChangedPath, DiffSide } from '../../../db/queries/repositories/diffs.ts';
import { hashObject } from '../git/oid.ts';
import { ActionError, type treeEditor } from '../writes/commit-actions.ts';
import type { GitObject } from '../store/store.ts';
import { mergeContent } from './content-merge.ts';

type Editor = ReturnType<typeof treeEditor>;
type Entry = { mode: string; oid: string };

const isRegular = (mode: string) => mode.startsWith('100');
const same = (a: Entry | null | undefined, b: Entry | null | undefined) =>
  (a ?? null) === null ? (b ?? null) === null : !!b && a!.mode === b.mode && a!.oid === b.oid;

/** Splits a stored path (bytes, '/'-separated) into components. */
export function components(path: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path[i] === 0x2f) {
      parts.push(path.subarray(start, i));
      start = i + 1;
    }
  }
  return parts;
}

/** The mode both sides agree on: the side that changed it wins; two different changes conflict (null). */
function mergedMode(base: string | undefined, ours: string, theirs: string): string | null {
  if (ours === theirs) return ours;
  if (base === ours) return theirs;
  if (base === theirs) return ours;
  return null;
}

export type TreeMergeResult = { conflict: true } | { conflict: false; treeOid: string; objects: GitObject[]; changed: boolean };

/**
 * Applies `changes` (base -> theirs, both sides' blobs included) to the tree in `editor` (ours, its touched
 * directories loaded). `oursBlobs` fetches the bodies of ours' blobs that need a line merge, in one read.
 */
export async function mergeIntoTree(
  editor: Editor,
  changes: readonly ChangedPath[],
  oursBlobs: (oids: string[]) => Promise<Map<string, Uint8Array>>,
): Promise<TreeMergeResult> {
  const decided: { path: Uint8Array[]; entry: Entry | null }[] = [];
  const lineMerges: { path: Uint8Array[]; base: DiffSide | null; ours: Entry; theirs: DiffSide; mode: string }[] = [];
  try {
    for (const change of changes) {
      const path = components(change.path);
      const base = change.old;
      const theirs = change.new;
      const ours = editor.existing(path) ?? null;
      if (same(ours, base)) decided.push({ path, entry: theirs });
      else if (same(ours, theirs)) continue;
      else if (ours && theirs && isRegular(ours.mode) && isRegular(theirs.mode) && (!base || isRegular(base.mode))) {
        const mode = mergedMode(base?.mode, ours.mode, theirs.mode);
        if (mode === null) return { conflict: true };
        if (ours.oid === theirs.oid || ours.oid === base?.oid) decided.push({ path, entry: { mode, oid: theirs.oid } });
        else if (theirs.oid === base?.oid) decided.push({ path, entry: { mode, oid: ours.oid } });
        else lineMerges.push({ path, base, ours, theirs, mode });
      } else return { conflict: true };
    }
  } catch (error) {
    // A directory in ours where theirs changes a file.
    if (error instanceof ActionError) return { conflict: true };
    throw error;
  }
  const blobs: GitObject[] = [];
  if (lineMerges.length) {
    const bodies = await oursBlobs([...new Set(lineMerges.map((m) => m.ours.oid))]);
    for (const m of lineMerges) {
      const merged = mergeContent(m.base?.data ?? new Uint8Array(), bodies.get(m.ours.oid) ?? new Uint8Array(), m.theirs.data ?? new Uint8Array());
      if (merged === null) return { conflict: true };
      blobs.push({ type: 'blob', body: merged });
      decided.push({ path: m.path, entry: { mode: m.mode, oid: await hashObject('blob', merged) } });
    }
  }
  try {
    for (const d of decided) {
      if (d.entry) editor.put(d.path, d.entry);
      else if (editor.existing(d.path)) editor.remove(d.path);
    }
  } catch (error) {
    // A file of theirs where ours has a directory, or under a path that is a file in ours.
    if (error instanceof ActionError) return { conflict: true };
    throw error;
  }
  const built = await editor.build();
  return { conflict: false, treeOid: built.treeOid, objects: [...blobs, ...built.trees], changed: decided.length > 0 };
}
