// Diff reads (GitLab 13.6 lib/api/commits.rb `commits/:sha/diff`, lib/api/repositories.rb `compare` and
// `merge_base`) and commit stats for the commit entities. Each costs a fixed number of statements whatever the
// number of files or commits: the project, the revisions (one each), then one statement for the history walk and
// one for the trees and blobs (db/queries/repositories/diffs.ts).
import { changedPaths, commitsBetween, mergeBase, type TreePair } from '../../../db/queries/repositories/diffs.ts';
import { resolveRevision } from '../../../db/queries/repositories/reads.ts';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import type { Db } from '../../../db/client.ts';
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage, isDomainError, notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { diffStats, renderDiffs, type DiffEntry, type RenderedDiff } from '../diffs/diffs.ts';
import type { CommitStatsView, CommitView } from '../entities.ts';
import { commitView, projectFor } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The diffs of each pair, in the pairs' order. */
async function diffsOf(db: Db, projectId: number, pairs: readonly TreePair[]): Promise<RenderedDiff[][]> {
  const changed = await changedPaths(db, projectId, pairs);
  return pairs.map((_, key) => renderDiffs(changed.filter((c) => c.key === key)));
}

/** GET repository/commits/:sha/diff: the commit against its first parent (a root commit: everything added). */
export async function commitDiff({ ctx, input }: Verb<{ project: Ref | null; sha: string }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const info = await resolveRevision(ctx.db, found.context.projectId, input.sha);
  if (!info) throw notFound('Commit');
  const [diffs] = await diffsOf(ctx.db, found.context.projectId, [{ oldCommit: null, newCommit: info.oid }]);
  return { ...found, diffs: diffs!.map((d) => d.entry) };
}

/**
 * CommitStats of commits (each against its first parent), in one statement for all of them: `GET commits/:sha`,
 * `GET commits?with_stats=true`, the commit a `POST commits` made.
 */
export async function commitStats(db: Db, projectId: number, commits: readonly { oid: string }[]): Promise<CommitStatsView[]> {
  const diffs = await diffsOf(
    db,
    projectId,
    commits.map((c) => ({ oldCommit: null, newCommit: c.oid })),
  );
  return diffs.map(diffStats);
}

export interface CompareResult {
  commits: CommitView[];
  diffs: DiffEntry[];
  same: boolean;
}

/**
 * GET repository/compare (CompareService, Gitlab::Git::Compare): the commits of `from..to` oldest first, and the
 * diff from `from` (`straight`) or from the merge base of the two (`from...to`, the default) to `to`. A ref that
 * names no commit: 404 `Ref Not Found`. Two unrelated histories have no merge base: their diff is taken from
 * `from` itself. With `from_project_id`, `from` is read in that project, which must be of the project's fork network
 * (MergeRequestTargetProjectFinder: readable, its code downloadable, not archived; a fork network is an object pool
 * here), else 400 `Target project id:<from_project_id> is not a fork of project id:<id>`.
 */
export async function compareRefs({
  ctx,
  input,
}: Verb<{ project: Ref | null; from: string; to: string; straight: boolean; fromProjectId?: number | undefined }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const projectId = found.context.projectId;
  let fromProjectId = projectId;
  if (input.fromProjectId !== undefined && input.fromProjectId !== projectId) {
    if (!(await inForkNetwork(ctx, projectId, input.fromProjectId))) {
      throw invalidMessage(`Target project id:${input.fromProjectId} is not a fork of project id:${input.project?.id ?? input.project?.path ?? ''}`);
    }
    fromProjectId = input.fromProjectId;
  }
  const [from, to] = await Promise.all([resolveRevision(ctx.db, fromProjectId, input.from.trim()), resolveRevision(ctx.db, projectId, input.to.trim())]);
  if (!from || !to) throw notFound('Ref');
  if (from.oid === to.oid) return { ...found, compare: { commits: [], diffs: [], same: true } satisfies CompareResult };
  const between = await commitsBetween(ctx.db, projectId, from.oid, to.oid);
  const base = input.straight ? from.oid : (between.mergeBase ?? from.oid);
  const [diffs] = await diffsOf(ctx.db, projectId, [{ oldCommit: base, newCommit: to.oid }]);
  return { ...found, compare: { commits: between.commits.map(commitView), diffs: diffs!.map((d) => d.entry), same: false } satisfies CompareResult };
}

/** Whether `otherId` is a project of `projectId`'s fork network the actor may compare from (same object pool). */
async function inForkNetwork(ctx: RequestContext, projectId: number, otherId: number): Promise<boolean> {
  const other = await projectFor(ctx, { id: otherId }, 'project:download_code').catch((error: unknown) => {
    if (isDomainError(error, 'not_found') || isDomainError(error, 'forbidden')) return null;
    throw error;
  });
  if (!other || other.project.project.archived) return false;
  const [mine, theirs] = await Promise.all([findRepository(ctx.db, projectId), findRepository(ctx.db, otherId)]);
  return mine !== undefined && theirs !== undefined && mine.poolId === theirs.poolId;
}

/**
 * GET repository/merge_base (Gitlab::Git::MergeBase): 400 `Provide at least 2 refs`, 400 `Could not find ref(s):
 * a, b` for refs naming no commit, 404 `Merge Base Not Found` for unrelated histories.
 */
export async function findMergeBase({ ctx, input }: Verb<{ project: Ref | null; refs: readonly string[] }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  if (input.refs.length < 2) throw invalidMessage('Provide at least 2 refs');
  const projectId = found.context.projectId;
  const resolved = await Promise.all(input.refs.map((r) => resolveRevision(ctx.db, projectId, r)));
  const unknown = input.refs.filter((_, i) => !resolved[i]);
  if (unknown.length) throw invalidMessage(`Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
  const [first, ...others] = resolved.map((r) => r!.oid);
  const base = await mergeBase(ctx.db, projectId, first!, others);
  if (!base) throw notFound('Merge Base');
  return { ...found, commit: commitView(base) };
}
