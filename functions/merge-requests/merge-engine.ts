// The git side of merging a merge request, over the repository store: whether the source merges into the target
// cleanly, the commits a merge writes (merge commit, squash commit, fast-forward) and a rebase of the source onto the
// target, as GitLab 13.6 does them through Gitaly (UserMergeBranch, UserFFBranch, UserSquash, UserRebaseConfirmable).
// Nothing here moves a ref: each verb answers the objects to write (a PreparedWrite) and the new tip, and the caller
// moves the branch by compare-and-swap with its merge request rows in one batch (repositories/ref-write.ts).
//
// Every merge is the cherry-pick's three-way tree merge (repositories/merge/tree-merge.ts): the changes from the merge
// base to the source applied onto the target's tree, files changed on both sides merged by lines, anything else
// changed on both sides (binary files, modes, deletions) a conflict. Renames are not detected, and with several
// merge bases (criss-cross history) the best one is used where git's recursive strategy would merge them first.
// Source and target projects share one object pool (a fork network's), so one project id reads both.
import type { Db } from '../../db/client.ts';
import type { ChangedPath, TreePair } from '../../db/queries/repositories/diffs.ts';
import { changedPaths, commitsBetween, readObjects, readTouchedDirs, resolveRevision } from '../repositories/lookups.ts';
import type { CommitInfo } from '../../db/queries/repositories/sql.ts';
import { ActionError, dirsAlong, treeEditor } from '../repositories/writes/commit-actions.ts';
import { decodeCommit, encodeCommit, type Signature } from '../repositories/git/commit.ts';
import { hashObject } from '../repositories/git/oid.ts';
import { components, mergeIntoTree } from '../repositories/merge/tree-merge.ts';
import { prepareWrite, type GitObject, type PreparedWrite } from '../repositories/store/store.ts';

export interface Person {
  name: string;
  email: string;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const signature = (who: Person, now: number): Signature => ({ name: who.name, email: who.email, time: now, tz: '+0000' });

/**
 * Ours' tree (its touched directories, loaded once) to merge into, and the reader of ours' blobs for line merges:
 * from `known` (blobs already in memory) first, then from the pool, remembering what it read.
 */
async function editorFor(db: Db, projectId: number, ours: string, changes: readonly ChangedPath[], known = new Map<string, Uint8Array>()) {
  const dirs = await readTouchedDirs(db, projectId, ours, dirsAlong(changes.map((c) => components(c.path))));
  if (!dirs) throw new Error(`merge engine: commit ${ours} is not in the repository`);
  const oursBlobs = async (oids: string[]) => {
    const missing = oids.filter((oid) => !known.has(oid));
    for (const b of await readObjects(db, projectId, missing)) known.set(b.oid, b.data);
    return new Map(oids.flatMap((oid) => (known.has(oid) ? [[oid, known.get(oid)!] as const] : [])));
  };
  return { editor: treeEditor(dirs.entries), commit: dirs.commit, oursBlobs };
}

type Editor = ReturnType<typeof treeEditor>;
type TreeMerge = { conflict: true } | { conflict: false; treeOid: string; objects: GitObject[] };

interface Merged {
  mergeBase: string | null;
  /** The commits the source has and the target has not, oldest first (Gitaly's CommitsBetween). */
  commits: CommitInfo[];
  tree: TreeMerge;
}

/**
 * The source merged into the target. A fast-forward takes the source's tree and a source already in the target
 * the target's, without reading a tree; histories without a common commit merge over an empty base, as libgit2 does.
 */
async function mergeSource(db: Db, projectId: number, targetTip: string, sourceHead: string): Promise<Merged> {
  const { commits, mergeBase } = await commitsBetween(db, projectId, targetTip, sourceHead);
  if (mergeBase === targetTip) {
    const head = commits.find((c) => c.oid === sourceHead) ?? (await resolveRevision(db, projectId, sourceHead))!;
    return { mergeBase, commits, tree: { conflict: false, treeOid: head.treeOid, objects: [] } };
  }
  if (mergeBase === sourceHead) {
    const target = (await resolveRevision(db, projectId, targetTip))!;
    return { mergeBase, commits, tree: { conflict: false, treeOid: target.treeOid, objects: [] } };
  }
  const pair: TreePair = mergeBase === null ? { oldCommit: null, newCommit: sourceHead, emptyOld: true } : { oldCommit: mergeBase, newCommit: sourceHead };
  const changes = await changedPaths(db, projectId, [pair]);
  const ours = await editorFor(db, projectId, targetTip, changes);
  const tree = await mergeIntoTree(ours.editor, changes, ours.oursBlobs);
  return { mergeBase, commits, tree: tree.conflict ? tree : { conflict: false, treeOid: tree.treeOid, objects: tree.objects } };
}

export interface Mergeability {
  mergeBase: string | null;
  conflict: boolean;
  /** The target is an ancestor of the source: a fast-forward (and a rebase_merge) needs no rebase. */
  ffPossible: boolean;
  /** Commits the source has that the target has not. */
  ahead: number;
}

/** Whether the source merges into the target cleanly (GitLab's can_be_merged?), in four statements at most. */
export async function mergeability(db: Db, projectId: number, a: { targetTip: string; sourceHead: string }): Promise<Mergeability> {
  const merged = await mergeSource(db, projectId, a.targetTip, a.sourceHead);
  return { mergeBase: merged.mergeBase, conflict: merged.tree.conflict, ffPossible: merged.mergeBase === a.targetTip, ahead: merged.commits.length };
}

export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

export interface SquashOptions {
  /** The squash_commit_message given; blank or absent: `defaultMessage` (MergeRequest#default_squash_commit_message). */
  message?: string | undefined;
  defaultMessage: string;
  /** The squash commit's author: the merge request's author in GitLab (Repository#squash). */
  author: Person;
}

export interface BuildMergeInput {
  targetTip: string;
  sourceHead: string;
  method: MergeMethod;
  squash?: SquashOptions | undefined;
  mergeMessage: string;
  /** Who merges: the merge commit's author and committer, the squash commit's committer. */
  user: Person;
  /** Unix seconds. */
  now: number;
}

export type BuildMergeResult =
  | { kind: 'conflict' }
  | { kind: 'ff_impossible' }
  | {
      kind: 'ok';
      /** New objects to write with the ref update; undefined for a plain fast-forward. */
      write: PreparedWrite | undefined;
      newTip: string;
      mergeCommitSha: string | null;
      /** The commit merged in place of the source head when squashing (the head itself when squashing was redundant). */
      squashCommitSha: string | null;
      /** For the push event: the commits the target gains and the newest one's message. */
      commitCount: number;
      lastCommitMessage: string;
    };

/**
 * git's message cleanup for `git commit -m` (cleanup=whitespace): trailing whitespace of each line, leading and
 * trailing blank lines and runs of blank lines removed, a final newline added. Gitaly 13.6's UserSquash commits
 * with `git commit --message` in a worktree, so the squash commit's message is cleaned up this way.
 */
export function cleanupMessage(message: string): string {
  const lines = message.split('\n').map((l) => l.replace(/[ \t\r\v\f]+$/, '')); // git's isspace()
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length && kept[kept.length - 1] === '') kept.pop();
  return kept.length ? `${kept.join('\n')}\n` : '';
}

/**
 * The commits a merge writes (MergeRequests::MergeService with Gitaly's UserMergeBranch / UserFFBranch, and
 * SquashService first when squashing), as GitLab 13.6 decides them:
 * - `merge` always writes a merge commit [target tip, source head or squash commit] with the merged tree, even when a
 *   fast-forward was possible;
 * - `rebase_merge` does the same but only when the source is on top of the target (otherwise GitLab refuses: the
 *   merge request needs a rebase): `ff_impossible`;
 * - `ff` moves the target to the source head (or the squash commit), `ff_impossible` when the target is not an
 *   ancestor of the source.
 * Squashing (SquashService) is skipped when the source has fewer than two commits and no squash message was given
 * (squash_redundant?); otherwise one commit on the target's tip with the merged tree: Repository#squash passes the
 * MR's diff_start_sha and Gitaly applies the `start...head` diff on it in a worktree (git apply --3way).
 */
export async function buildMerge(db: Db, projectId: number, input: BuildMergeInput): Promise<BuildMergeResult> {
  const { targetTip, sourceHead, method } = input;
  const merged = await mergeSource(db, projectId, targetTip, sourceHead);
  const ffPossible = merged.mergeBase === targetTip;
  if (method !== 'merge' && !ffPossible) return { kind: 'ff_impossible' };
  if (merged.tree.conflict) return { kind: 'conflict' };

  const objects: GitObject[] = [...merged.tree.objects];
  let source = sourceHead;
  let sourceMessage = merged.commits.find((c) => c.oid === sourceHead)?.message;
  let sourceCommits = merged.commits.length;
  let squashCommitSha: string | null = null;
  const given = input.squash?.message?.trim() ? input.squash.message : undefined;
  if (input.squash && (merged.commits.length >= 2 || given !== undefined)) {
    sourceMessage = cleanupMessage(given ?? input.squash.defaultMessage);
    const body = encodeCommit({
      tree: merged.tree.treeOid,
      parents: [targetTip],
      author: signature(input.squash.author, input.now),
      committer: signature(input.user, input.now),
      headers: [],
      message: utf8(sourceMessage),
    });
    objects.push({ type: 'commit', body });
    source = await hashObject('commit', body);
    sourceCommits = 1;
  }
  if (input.squash) squashCommitSha = source;

  if (method === 'ff') {
    const write = objects.length ? await prepareWrite(objects) : undefined;
    // A fast-forward to the head itself: its message is the newest commit's (empty only when nothing is ahead).
    return { kind: 'ok', write, newTip: source, mergeCommitSha: null, squashCommitSha, commitCount: sourceCommits, lastCommitMessage: sourceMessage ?? '' };
  }
  const who = signature(input.user, input.now);
  const body = encodeCommit({
    tree: merged.tree.treeOid,
    parents: [targetTip, source],
    author: who,
    committer: who,
    headers: [],
    message: utf8(input.mergeMessage),
  });
  const write = await prepareWrite([...objects, { type: 'commit', body }]);
  const mergeCommitSha = write.oids[write.oids.length - 1]!;
  return { kind: 'ok', write, newTip: mergeCommitSha, mergeCommitSha, squashCommitSha, commitCount: sourceCommits + 1, lastCommitMessage: input.mergeMessage };
}

/** `commits` with every commit after its parents among them, otherwise in the order given (oldest first). */
function parentsFirst(commits: readonly CommitInfo[]): CommitInfo[] {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const done = new Set<string>();
  const out: CommitInfo[] = [];
  const visit = (start: CommitInfo) => {
    // Iterative: a long branch must not exhaust the stack.
    const stack: { commit: CommitInfo; next: number }[] = [{ commit: start, next: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const parent = top.commit.parentOids[top.next++];
      if (parent === undefined) {
        stack.pop();
        if (!done.has(top.commit.oid)) {
          done.add(top.commit.oid);
          out.push(top.commit);
        }
      } else if (byOid.has(parent) && !done.has(parent)) stack.push({ commit: byOid.get(parent)!, next: 0 });
    }
  };
  for (const c of commits) visit(c);
  return out;
}

/**
 * The target's blobs a replay may line-merge, in one read: at each path, the first replayed commit touching it
 * merges into the target's version when that differs from both of the commit's sides; later steps merge into a
 * blob of the source's or of an earlier step. `changes` come in replay order (changedPaths orders them by pair).
 */
async function prefetchTargetBlobs(db: Db, projectId: number, editor: Editor, changes: readonly ChangedPath[], known: Map<string, Uint8Array>) {
  const first = new Map<string, ChangedPath>();
  for (const c of changes) {
    const key = String.fromCharCode(...c.path);
    if (!first.has(key)) first.set(key, c);
  }
  const wanted = new Set<string>();
  for (const c of first.values()) {
    let entry: { mode: string; oid: string } | undefined;
    try {
      entry = editor.existing(components(c.path));
    } catch (error) {
      // A directory where the commit has a file: the step conflicts, no merge to read for.
      if (error instanceof ActionError) continue;
      throw error;
    }
    if (entry?.mode.startsWith('100') && entry.oid !== c.old?.oid && entry.oid !== c.new?.oid && !known.has(entry.oid)) wanted.add(entry.oid);
  }
  for (const b of await readObjects(db, projectId, [...wanted])) known.set(b.oid, b.data);
}

export type RebaseResult =
  | { kind: 'conflict' }
  | {
      kind: 'ok';
      /** New objects to write with the source branch's update; undefined when nothing changes. */
      write: PreparedWrite | undefined;
      newHead: string;
      /** For the push event: the commits written and the newest one's message. */
      commitCount: number;
      lastCommitMessage: string | null;
    };

/**
 * The source rebased onto the target, as Gitaly 13.6's UserRebaseConfirmable (`git pull --rebase` in a worktree,
 * git's default merge backend): the source's commits the target lacks, merge commits left out, each replayed as a
 * cherry-pick onto the one before, oldest first, keeping its author and message, committed by `user`. A commit that
 * becomes empty is dropped (git's --empty=drop; one that was empty is kept). A source already on top of the target
 * is returned unchanged; a source the target contains becomes the target's tip.
 */
export async function rebase(db: Db, projectId: number, input: { targetTip: string; sourceHead: string; user: Person; now: number }): Promise<RebaseResult> {
  const { commits, mergeBase } = await commitsBetween(db, projectId, input.targetTip, input.sourceHead);
  if (mergeBase === input.targetTip) return { kind: 'ok', write: undefined, newHead: input.sourceHead, commitCount: 0, lastCommitMessage: null };
  const replayed = parentsFirst(commits).filter((c) => c.parentOids.length <= 1);
  if (!replayed.length) return { kind: 'ok', write: undefined, newHead: input.targetTip, commitCount: 0, lastCommitMessage: null };

  // Each commit's own change (a root commit's against the empty tree) and its raw object, read once for all.
  const pairs: TreePair[] = replayed.map((c) => ({ oldCommit: null, newCommit: c.oid, emptyOld: c.parentOids.length === 0 }));
  const [changes, raw] = await Promise.all([
    changedPaths(db, projectId, pairs),
    readObjects(
      db,
      projectId,
      replayed.map((c) => c.oid),
    ),
  ]);
  const bodies = new Map(raw.map((o) => [o.oid, o.data]));
  const byKey = new Map<number, ChangedPath[]>();
  for (const change of changes) {
    if (!byKey.has(change.key)) byKey.set(change.key, []);
    byKey.get(change.key)!.push(change);
  }

  // One editor over the target's tree carries every step. Every blob a line merge may take is in memory before the
  // first step: the source's (read with the changes), the target's (prefetched), then each step's own.
  const known = new Map<string, Uint8Array>();
  for (const c of changes) for (const side of [c.old, c.new]) if (side?.data) known.set(side.oid, side.data);
  const ours = await editorFor(db, projectId, input.targetTip, changes, known);
  await prefetchTargetBlobs(db, projectId, ours.editor, changes, known);
  const committer = signature(input.user, input.now);
  const objects: GitObject[] = [];
  let tip = input.targetTip;
  let tipTree = ours.commit.treeOid;
  let last: CommitInfo | undefined;
  let count = 0;
  for (const [i, commit] of replayed.entries()) {
    const own = byKey.get(i) ?? [];
    const merged = await mergeIntoTree(ours.editor, own, ours.oursBlobs);
    if (merged.conflict) return { kind: 'conflict' };
    if (merged.treeOid === tipTree && own.length) continue;
    for (const o of merged.objects) if (o.type === 'blob') known.set(await hashObject('blob', o.body), o.body);
    const original = decodeCommit(bodies.get(commit.oid)!);
    // The message's charset header goes along with its bytes; a signature would no longer be valid.
    const headers = original.headers.filter(([name]) => name === 'encoding');
    const body = encodeCommit({ tree: merged.treeOid, parents: [tip], author: original.author, committer, headers, message: original.message });
    objects.push(...merged.objects, { type: 'commit', body });
    tip = await hashObject('commit', body);
    tipTree = merged.treeOid;
    last = commit;
    count++;
  }
  if (!count) return { kind: 'ok', write: undefined, newHead: input.targetTip, commitCount: 0, lastCommitMessage: null };
  const write = await prepareWrite(objects);
  return { kind: 'ok', write, newHead: tip, commitCount: count, lastCommitMessage: last!.message };
}
