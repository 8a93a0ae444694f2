// The one write every repository verb ends with: new objects (if any), the ref compare-and-swaps, the push events
// for those refs and any row that must change with them (the repository's HEAD on its first branch and that
// branch's protection), as ONE batch: one round trip, all or nothing. store.ts's applyWrite does the objects and
// refs; this adds what GitLab records with a push, so a lost race leaves neither objects nor an event behind. Each
// moved branch also enqueues, in that batch, the update of the open merge requests from or into it
// (UpdateMergeRequestsWorker), and a push that created or moved a branch or tag its pipelines (PostReceive); both run
// right after the response, never inside it: reads of a merge request never write, and a push waits for no CI.
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../../db/client.ts';
import { isRefConflict, setDefaultBranchQuery, updateRefQuery, type RefUpdate } from '../../../db/queries/repositories/refs.ts';
import { protectDefaultBranchQuery } from '../../../db/queries/repositories/protected-branches.ts';
import { projectJobByIdStatement } from '../../background-jobs/enqueue.ts';
import type { PushChange } from '../../pipelines/push.ts';
import { pushEventStatement } from '../../events/record.ts';
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage } from '../../lib/errors.ts';
import { toPushPayload } from '../entities.ts';
import { RefConflictError, writeStatements, type PreparedWrite } from './store.ts';

const BLANK_SHA = '0'.repeat(40);

export interface RefMove extends RefUpdate {
  /** Commits the push brings (push data's total_commits_count) and the newest one's message, for the event. */
  commitCount: number;
  lastCommitMessage: string | null;
}

export interface RefWrite {
  poolId: number;
  write?: PreparedWrite | undefined;
  refs: readonly RefMove[];
  /** Set the repository's HEAD to this branch (its first branch: GitLab makes it the default branch). */
  head?: { projectId: number; branch: string } | undefined;
  /**
   * Rows that must change with the refs (a merge request marked merged, its events, the issues it closes): appended
   * after the push events, so they commit only if every compare-and-swap succeeded.
   */
  extra?: ((db: Db) => BatchItem<'pg'>[]) | undefined;
  /** The push's `ci.skip` and `ci.variable` options, for its pipelines (PostReceive's push_options). */
  ci?: { skip: boolean; variables: readonly { key: string; value: string }[] } | undefined;
}

/** Writes objects, refs, HEAD and push events in one batch; throws RefConflictError when a ref had moved. */
export async function writeRefs(ctx: RequestContext, w: RefWrite): Promise<void> {
  const authorId = ctx.actor.user!.id;
  // One order for every writer (as store.ts's applyWrite): two writes moving the same refs cannot deadlock.
  const refs = [...w.refs].sort((a, b) => a.projectId - b.projectId || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const statements = (db: Db): BatchItem<'pg'>[] => [
    ...(w.write ? writeStatements(db, w.poolId, w.write) : []),
    ...refs.map((u) => updateRefQuery(db, u)),
    // The first branch becomes the default branch and, as Projects::ProtectDefaultBranchService does, protected.
    ...(w.head ? [setDefaultBranchQuery(db, w.head.projectId, w.head.branch), protectDefaultBranchQuery(db, w.head.projectId, w.head.branch)] : []),
    ...refs.map((u) =>
      pushEventStatement(db, {
        action: 'pushed',
        authorId,
        projectId: u.projectId,
        push: toPushPayload({ ref: u.name, before: u.old, after: u.new, commitCount: u.commitCount, lastCommitMessage: u.lastCommitMessage }),
      }),
    ),
    ...(w.extra ? w.extra(db) : []),
    // GitLab's Gitlab::Git::BLANK_SHA stands for a branch created or deleted.
    ...refs
      .filter((u) => u.name.startsWith('refs/heads/'))
      .map((u) =>
        projectJobByIdStatement(db, ctx, 'update_merge_requests', u.projectId, {
          project_id: u.projectId,
          user_id: authorId,
          oldrev: u.old ?? BLANK_SHA,
          newrev: u.new ?? BLANK_SHA,
          ref: u.name,
        }),
      ),
    ...postReceive(refs).map((changes) =>
      projectJobByIdStatement(db, ctx, 'post_receive', changes[0]!.project_id, {
        user_id: authorId,
        changes,
        ...(w.ci && (w.ci.skip || w.ci.variables.length) && { push_options: { ci: pushOptionsCi(w.ci) } }),
      }),
    ),
  ];
  try {
    await ctx.batch((db) => statements(db) as unknown as readonly [BatchItem<'pg'>]);
  } catch (error) {
    if (isRefConflict(error)) throw new RefConflictError(refs.map((u) => u.name));
    throw error;
  }
}

/** GitLab's push_options hash for `ci`: `{ skip: true, variable: { "KEY=value": 1 } }`. */
function pushOptionsCi(ci: NonNullable<RefWrite['ci']>) {
  return {
    ...(ci.skip && { skip: true }),
    ...(ci.variables.length && { variable: Object.fromEntries(ci.variables.map((v) => [`${v.key}=${v.value}`, 1])) }),
  };
}

/** The branches and tags a push created or moved, one PostReceive job's changes per project. */
function postReceive(refs: readonly RefMove[]): PushChange[][] {
  const byProject = new Map<number, PushChange[]>();
  for (const u of refs) {
    if (u.new === null || !(u.name.startsWith('refs/heads/') || u.name.startsWith('refs/tags/'))) continue;
    byProject.set(u.projectId, [...(byProject.get(u.projectId) ?? []), { project_id: u.projectId, ref: u.name, before: u.old ?? BLANK_SHA, after: u.new }]);
  }
  return [...byProject.values()];
}

/**
 * A lost compare-and-swap in GitLab's words: Gitlab::Git::OperationService#update_ref (lib/gitlab/git/
 * operation_service.rb, carried into Gitaly's UserCommitFiles/UserCreateBranch as the CommitError the services
 * return) raises "Could not update branch <name>. Please refresh and try again.", which the API answers with
 * render_api_error!(message, 400).
 */
export function refConflict(branch: string) {
  return invalidMessage(`Could not update branch ${branch}. Please refresh and try again.`);
}
