// Diffs as GitLab 13.6 shows them (Entities::Diff over Gitlab::Git::Diff, which Gitaly's CommitDiff fills from
// `git diff --find-renames=50%`): the changed paths of two trees (db/queries/repositories/diffs.ts, one statement),
// renames paired (renames.ts), each file's hunks rendered (text.ts); and a commit's stats from them.
import type { ChangedPath, DiffSide } from '../../../db/queries/repositories/diffs.ts';
import { detectRenames, type FileChange } from './renames.ts';
import { fileDiff, isBinary, type FileDiff } from './text.ts';
import type { CommitStatsView } from '../entities.ts';

export interface DiffEntry {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
}

/** An entry and the line counts behind it (CommitStats), which a too-large entry's empty text no longer shows. */
export interface RenderedDiff {
  entry: DiffEntry;
  additions: number;
  deletions: number;
}

const kind = (mode: string) => (mode === '120000' ? 'link' : mode === '160000' ? 'submodule' : 'file');
const EMPTY = new Uint8Array();
const paths = new TextDecoder();

/** What git diffs for a side: a submodule is the line `Subproject commit <id>`. */
const content = (s: DiffSide | null): Uint8Array =>
  s === null ? EMPTY : kind(s.mode) === 'submodule' ? new TextEncoder().encode(`Subproject commit ${s.oid}\n`) : (s.data ?? EMPTY);

/**
 * The changed paths of one pair as git lists them: a change of kind (file, symlink, submodule) is a deletion and
 * an addition, as git shows a typechange; then renames are paired.
 */
export function fileChanges(changed: readonly ChangedPath[]): FileChange[] {
  const out: FileChange[] = [];
  for (const c of changed) {
    const path = paths.decode(c.path);
    if (c.old && c.new && kind(c.old.mode) !== kind(c.new.mode)) {
      out.push({ oldPath: path, newPath: null, old: c.old, new: null }, { oldPath: null, newPath: path, old: null, new: c.new });
    } else {
      out.push({ oldPath: c.old ? path : null, newPath: c.new ? path : null, old: c.old, new: c.new });
    }
  }
  return detectRenames(out);
}

/**
 * What GitLab shows for a file: its hunks, git's one line for a binary file (no lines counted, as numstat's `-`),
 * '' when only names or modes changed.
 */
function diffOf(c: FileChange): FileDiff {
  const before = content(c.old);
  const after = content(c.new);
  if (c.old && c.new && c.old.oid === c.new.oid) return { text: '', additions: 0, deletions: 0 };
  if (isBinary(before) || isBinary(after)) {
    return {
      text: `Binary files ${c.old ? `a/${c.oldPath}` : '/dev/null'} and ${c.new ? `b/${c.newPath}` : '/dev/null'} differ\n`,
      additions: 0,
      deletions: 0,
    };
  }
  return fileDiff(before, after);
}

/** Entities::Diff: a new file's old_path is its new path (and a deleted one's new_path its old), a missing mode "0". */
export function toDiffEntry(c: FileChange): RenderedDiff {
  const path = (c.newPath ?? c.oldPath)!;
  const d = diffOf(c);
  const entry: DiffEntry = {
    old_path: c.oldPath ?? path,
    new_path: c.newPath ?? c.oldPath!,
    a_mode: c.old?.mode ?? '0',
    b_mode: c.new?.mode ?? '0',
    new_file: c.old === null,
    renamed_file: c.old !== null && c.new !== null && c.oldPath !== c.newPath,
    deleted_file: c.new === null,
    diff: d.text,
  };
  return { entry, additions: d.additions, deletions: d.deletions };
}

export const renderDiffs = (changed: readonly ChangedPath[]): RenderedDiff[] => fileChanges(changed).map(toDiffEntry);

/** CommitStats: the lines added and removed over the files. */
export function diffStats(diffs: readonly RenderedDiff[]): CommitStatsView {
  return { additions: diffs.reduce((n, d) => n + d.additions, 0), deletions: diffs.reduce((n, d) => n + d.deletions, 0) };
}
