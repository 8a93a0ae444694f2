// The scheduled housekeeping (Worker `scheduled()`, every 15 minutes): deletion accepted through the API (202,
// `deleted_at` set, hidden at once) becomes final here, memberships past their expiry date are removed (a project
// membership records its `expired` event in the same transaction), events older than 2 years are deleted,
// rate-limit counters whose window is long over (unknown logins and client ids would otherwise stay forever) go, and
// object pools no repository uses any more (a purged project's, once no fork shares it) go with their objects, and
// pending notifications are resolved and delivered (notifications/deliver.ts).
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../lib/context.ts';
import { log } from '../lib/log.ts';
import {
  deleteExpiredMemberships,
  findPurgeableGroupIds,
  findPurgeableProjectIds,
  purgeProjectsAndGroups,
} from '../../db/queries/housekeeping.ts';
import { deleteEventsBefore } from '../../db/queries/events.ts';
import { deleteStaleCounters } from '../../db/queries/rate-limits.ts';
import { deleteUnusedPools } from '../../db/queries/repositories.ts';
import { recordEvents } from '../events/record.ts';
import { deliverNotifications, type DeliveryResult } from '../notifications/deliver.ts';

export interface HousekeepingResult {
  purgedProjects: number;
  purgedGroups: number;
  expiredMemberships: number;
  expiredEvents: number;
  staleRateLimits: number;
  unusedPools: number;
  notifications: DeliveryResult;
}

/** Events are kept 2 years (the spec's retention). */
export const EVENT_RETENTION = sql`now() - interval '2 years'`;
/** Rate-limit windows last 10 minutes at the most (lib/rate-limit.ts): a counter an hour old counts nothing. */
export const RATE_LIMIT_RETENTION = sql`now() - interval '1 hour'`;
/** Rows per retention batch: each batch is one short statement, so no long lock or transaction. */
export const EVENT_RETENTION_BATCH = 5000;

type JobContext = { ctx: Pick<RequestContext, 'db' | 'transaction'> };

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

/** No actor: the job runs as the system, on the database only. */
export async function runHousekeeping({ ctx }: JobContext, options: { eventBatchSize?: number } = {}): Promise<HousekeepingResult> {
  const purged = await ctx.transaction(async (tx) => {
    const groupIds = await findPurgeableGroupIds(tx);
    const projectIds = await findPurgeableProjectIds(tx, groupIds);
    await purgeProjectsAndGroups(tx, projectIds, groupIds);
    return { purgedProjects: projectIds.length, purgedGroups: groupIds.length };
  });
  const expiredMemberships = await ctx.transaction(async (tx) => {
    const removed = await deleteExpiredMemberships(tx);
    // GitLab's ProjectMember#post_destroy_hook: `expired`, authored by the member; group memberships record nothing.
    await recordEvents(
      tx,
      removed.filter((m) => m.projectExists).map((m) => ({ action: 'expired' as const, authorId: m.userId, projectId: m.sourceId })),
    );
    return removed.length;
  });
  const expiredEvents = await expireOldEvents({ ctx }, options.eventBatchSize);
  const staleRateLimits = await deleteStaleCounters(ctx.db, RATE_LIMIT_RETENTION, 10_000);
  // After the purge's commit: a pool a fork still uses keeps its repository row and is never touched.
  const unusedPools = (await deleteUnusedPools(ctx.db)).length;
  const notifications = await deliverNotifications({ ctx });
  const result = { ...purged, expiredMemberships, expiredEvents, staleRateLimits, unusedPools, notifications };
  log('info', 'housekeeping done', { ...result });
  return result;
}

/**
 * The scheduled work, as every runtime triggers it: the Worker's cron (`scheduled()` in functions/index.ts) and the
 * timer of `npm start` (functions/local-schedule.ts). A failure is logged with what triggered it, then rethrown for
 * the trigger to report.
 */
export async function runScheduledWork(ctx: JobContext['ctx'], trigger: string): Promise<HousekeepingResult> {
  try {
    return await runHousekeeping({ ctx });
  } catch (error) {
    log('error', 'housekeeping failed', { cron: trigger, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    throw error;
  }
}
