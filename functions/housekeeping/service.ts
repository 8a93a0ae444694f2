// The housekeeping the background jobs run (functions/background-jobs/workers.ts): deletion accepted through the
// API (202, `deleted_at` set, hidden at once) becomes final (one project's or group's own job, and a periodic sweep
// that finds whatever is left, e.g. after an administrator dropped a job), memberships past their expiry date are
// removed (a project membership records its `expired` event in the same transaction), events older than 2 years are
// deleted, rate-limit counters whose window is long over (unknown logins and client ids would otherwise stay forever)
// go, object pools no repository uses any more (a purged project's, once no fork shares it) go with their
// objects, and so do the packs a repack replaced over an hour ago and the stored files no owner took within a day. Each task is idempotent and safe to run
// concurrently with itself.
import { sql } from 'drizzle-orm';
import type { Config, RequestContext } from '../lib/context.ts';
import { deleteExpiredMemberships, findPurgeableGroupIds, findPurgeableProjectIds, purgeProjectsAndGroups } from '../../db/queries/housekeeping.ts';
import { deleteEventsBefore } from '../events/statements.ts';
import { deleteStaleCounters } from '../../db/queries/lib/rate-limits.ts';
import { deleteOrphanedFiles } from '../../db/queries/lib/stored-files.ts';
import { LEASE_MAX_SECONDS, LEASE_PREFIX } from '../lib/rate-limit.ts';
import { deleteReplacedPacks, deleteUnusedPools } from '../repositories/statements.ts';
import { recordEvents } from '../events/record.ts';

/** Events are kept 2 years (the spec's retention). */
export const EVENT_RETENTION = sql`now() - interval '2 years'`;
/** Rate-limit windows last 10 minutes at the most (lib/rate-limit.ts): a counter an hour old counts nothing. */
export const RATE_LIMIT_RETENTION = sql`now() - interval '1 hour'`;
/** Rows per retention batch: each batch is one short statement, so no long lock or transaction. */
export const EVENT_RETENTION_BATCH = 5000;

/** No actor: the tasks run as the system, on the database only. */
/**
 * What a job runs with: a database handle of its own and, where the trigger has it, the instance's configuration
 * (the cron and the requests that run prompt queues pass it; a worker that needs it fails without).
 */
export type JobContext = { ctx: Pick<RequestContext, 'db' | 'transaction' | 'batch'>; config?: Config | undefined };

export interface PurgeResult {
  purgedProjects: number;
  purgedGroups: number;
}

/**
 * Purges deleted projects and groups (with their subgroups and projects): `scope` names one project or one group
 * (its job), none means every deleted one. What is not deleted (any more) is left alone.
 */
export async function purgeDeleted({ ctx }: JobContext, scope: { projectId?: number; groupId?: number } = {}): Promise<PurgeResult> {
  return ctx.transaction(async (tx) => {
    const groupIds = scope.projectId !== undefined ? [] : await findPurgeableGroupIds(tx, scope.groupId);
    const groupsOnly = scope.groupId !== undefined;
    const projectIds = groupsOnly && !groupIds.length ? [] : await findPurgeableProjectIds(tx, groupIds, { projectId: scope.projectId, groupsOnly });
    await purgeProjectsAndGroups(tx, projectIds, groupIds);
    return { purgedProjects: projectIds.length, purgedGroups: groupIds.length };
  });
}

/** Removes memberships past their expiry date; the number removed. */
export async function expireMemberships({ ctx }: JobContext): Promise<number> {
  return ctx.transaction(async (tx) => {
    const removed = await deleteExpiredMemberships(tx);
    // GitLab's ProjectMember#post_destroy_hook: `expired`, authored by the member; group memberships record nothing.
    await recordEvents(
      tx,
      removed.filter((m) => m.projectExists).map((m) => ({ action: 'expired' as const, authorId: m.userId, projectId: m.sourceId })),
    );
    return removed.length;
  });
}

/**
 * Deletes events older than the retention in bounded batches until a batch comes back short. Idempotent, and safe
 * to run concurrently: each batch locks its rows with SKIP LOCKED, so two runs take different rows.
 */
export async function expireOldEvents({ ctx }: JobContext, batchSize = EVENT_RETENTION_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteEventsBefore(ctx.db, EVENT_RETENTION, batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Drops rate-limit counters whose window is long over; the number dropped. */
export const deleteStaleRateLimits = ({ ctx }: JobContext): Promise<number> =>
  deleteStaleCounters(ctx.db, RATE_LIMIT_RETENTION, 10_000, { prefix: LEASE_PREFIX, olderThan: sql`now() - make_interval(secs => ${LEASE_MAX_SECONDS})` });

/** Deletes object pools no repository uses (after the purges' commits: a pool a fork still uses is never touched). */
export const deleteUnusedObjectPools = async ({ ctx }: JobContext): Promise<number> => (await deleteUnusedPools(ctx.db)).length;

/** Repacked projects' replaced packs, once no clone can still be streaming them (the next repack would, if any). */
export const deleteReplacedGitPacks = async ({ ctx }: JobContext): Promise<number> => deleteReplacedPacks(ctx.db);

/** Stored files no owner took, a day old: no upload or repack still writes them. */
export const ORPHANED_FILE_AGE = sql`now() - interval '1 day'`;
export const deleteOrphanedStoredFiles = async ({ ctx }: JobContext): Promise<number> => deleteOrphanedFiles(ctx.db, ORPHANED_FILE_AGE, 1000);
