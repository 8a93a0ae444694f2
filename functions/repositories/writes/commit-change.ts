// POST repository/commits/:sha/cherry_pick and /revert (GitLab 13.6 lib/api/commits.rb over Commits::ChangeService
// and Gitaly's UserCherryPick / UserRevert): the commit's change (against its first parent, as Gitaly's mainline 1
// for a merge) applied to the branch's tip by a three-way merge (merge/tree-merge.ts), committed on the branch by
// compare-and-swap with its push event in one batch. A conflict, or a change the branch already has, is GitLab's
// 400 `{"message": "Sorry, we cannot cherry-pick this commit automatically. ...", "error_code": "conflict"|"empty"}`;
// `dry_run` answers without writing.
import { changedPaths } from '../../../db/queries/repositories/diffs.ts';
import { readTouchedDirs } from '../../../db/queries/repositories/dirs.ts';
import { readObjects, resolveRevision } from '../../../db/queries/repositories/reads.ts';
import { findRef } from '../../../db/queries/repositories/refs.ts';
import type { RequestContext } from '../../lib/context.ts';
import { forbidden, invalidMessage, notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { dirsAlong, treeEditor } from './commit-actions.ts';
import { commitTitle, type CommitView } from '../entities.ts';
import { encodeCommit } from '../git/commit.ts';
import { components, mergeIntoTree } from '../merge/tree-merge.ts';
import { canPushToBranch } from './push-access.ts';
import { refConflict, writeRefs } from '../store/ref-write.ts';
import type { CommitChangeParams } from '../schemas.ts';
import { commitView, repositoryFor } from '../service.ts';
import { prepareWrite, RefConflictError } from '../store/store.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export type ChangeKind = 'cherry_pick' | 'revert';

const VERBS = { cherry_pick: ['cherry-pick', 'cherry-picked'], revert: ['revert', 'reverted'] } as const;

/** Commits::ChangeService#commit_change's refusal, with Gitaly's error code and, for a dry run, `dry_run: error`. */
function changeError(kind: ChangeKind, code: 'conflict' | 'empty', dryRun: boolean) {
  const [act, done] = VERBS[kind];
  const message = `Sorry, we cannot ${act} this commit automatically. This commit may already have been ${done}, or a more recent commit may have updated some of its content.`;
  return invalidMessage(message, dryRun ? { error_code: code, dry_run: 'error' } : { error_code: code });
}

export type ChangeResult = { dryRun: true } | { dryRun: false; commit: CommitView };

export async function changeCommit({ ctx, input }: Verb<{ project: Ref | null; sha: string; kind: ChangeKind; params: CommitChangeParams }>) {
  const found = await repositoryFor(ctx, input.project, 'project:download_code');
  const { branch, dry_run: dryRun } = input.params;
  const projectId = found.context.projectId;
  // commits.rb: authorize_push_to_branch!, then the commit (404 Commit Not Found), then find_branch!.
  if (!canPushToBranch(ctx, found.facts, found.repository, branch)) throw forbidden('You are not allowed to push into this branch');
  const [picked, tip] = await Promise.all([resolveRevision(ctx.db, projectId, input.sha), findRef(ctx.db, projectId, `refs/heads/${branch}`)]);
  if (!picked) throw notFound('Commit');
  if (tip === undefined) throw notFound('Branch');

  // The commit's own change; a revert applies it backwards.
  const pair = picked.parentOids.length ? { oldCommit: null, newCommit: picked.oid } : { oldCommit: null, newCommit: picked.oid, emptyOld: true };
  const forward = await changedPaths(ctx.db, projectId, [pair]);
  const changes = input.kind === 'revert' ? forward.map((c) => ({ ...c, old: c.new, new: c.old })) : forward;
  const ours = await readTouchedDirs(ctx.db, projectId, tip, dirsAlong(changes.map((c) => components(c.path))));
  if (!ours) throw notFound('Branch');
  const merged = await mergeIntoTree(treeEditor(ours.entries), changes, async (oids) => {
    const bodies = await readObjects(ctx.db, projectId, oids);
    return new Map(bodies.map((b) => [b.oid, b.data]));
  });
  if (merged.conflict) throw changeError(input.kind, 'conflict', dryRun);
  if (merged.treeOid === ours.commit.treeOid) throw changeError(input.kind, 'empty', dryRun);
  if (dryRun) return { ...found, result: { dryRun: true } as ChangeResult };

  const user = ctx.actor.user!;
  const now = Math.floor(Date.now() / 1000);
  const committer = { name: user.name, email: user.email, time: now, tz: '+0000' };
  // Gitaly keeps a cherry-picked commit's author; a revert is the user's own.
  const author = input.kind === 'cherry_pick' ? picked.author : committer;
  // Commit#cherry_pick_message and #revert_message (no merge request yet can have merged the commit).
  const message =
    input.kind === 'cherry_pick'
      ? `${picked.message}\n\n(cherry picked from commit ${picked.oid})`
      : `Revert "${commitTitle(picked.message).trim()}"\n\nThis reverts commit ${picked.oid}`;
  const body = encodeCommit({ tree: merged.treeOid, parents: [ours.commit.oid], author, committer, headers: [], message: new TextEncoder().encode(message) });
  const write = await prepareWrite([...merged.objects, { type: 'commit', body }]);
  const oid = write.oids[write.oids.length - 1]!;
  try {
    await writeRefs(ctx, {
      poolId: found.repository.poolId!,
      write,
      refs: [{ projectId, name: `refs/heads/${branch}`, old: tip, new: oid, commitCount: 1, lastCommitMessage: message }],
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw refConflict(branch);
    throw error;
  }
  const commit = commitView({
    oid,
    treeOid: merged.treeOid,
    parentOids: [ours.commit.oid],
    generation: ours.commit.generation + 1,
    author,
    committer,
    title: commitTitle(message),
    message,
  });
  return { ...found, result: { dryRun: false, commit } as ChangeResult };
}
