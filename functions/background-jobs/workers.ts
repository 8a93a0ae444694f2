// The workers: what a job of each queue does with its args. Each is idempotent (a job may run again after a runner
// died holding it, once its lease ran out) and returns a summary the runner logs.
import {
  deleteOrphanedStoredFiles,
  deleteReplacedGitPacks,
  deleteStaleRateLimits,
  deleteUnusedObjectPools,
  expireMemberships,
  expireOldEvents,
  purgeDeleted,
  type JobContext,
} from '../housekeeping/service.ts';
import { closeIssuesAfterPush } from '../issues/commit-closing.ts';
import { mergeWaitingForPipeline } from '../merge-requests/auto-merge.ts';
import { updateMergeRequestsAfterPush } from '../merge-requests/refresh.ts';
import { deliverNotifications } from '../notifications/deliver.ts';
import { createPipelinesAfterPush, type PushChange } from '../pipelines/push.ts';
import { repackIfDue } from '../repositories/housekeeping.ts';
import type { QueueName } from './queues.ts';

export type Perform = (job: JobContext, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A numeric argument, or an error the job dies of (a malformed job never succeeds on retry either). */
function idArg(args: Record<string, unknown>, name: string): number {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error(`argument ${name} missing`);
  return value;
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new Error(`argument ${name} missing`);
  return value;
}

/** PostReceive's changes: each a project id, a full ref name and the two SHAs. */
/** PostReceive's push_options for CI: `{ ci: { skip: true, variable: { "KEY=value": 1 } } }` (git push -o ci.skip, ci.variable=...). */
function ciArg(args: Record<string, unknown>): { ciSkip: boolean; variables: { key: string; value: string }[] } {
  const ci = (args.push_options as { ci?: { skip?: unknown; variable?: unknown } } | undefined)?.ci;
  const variable = ci?.variable && typeof ci.variable === 'object' ? Object.keys(ci.variable) : [];
  return {
    ciSkip: ci?.skip === true,
    variables: variable.filter((v) => v.indexOf('=') > 0).map((v) => ({ key: v.slice(0, v.indexOf('=')), value: v.slice(v.indexOf('=') + 1) })),
  };
}

function changesArg(args: Record<string, unknown>): PushChange[] {
  const value = args.changes;
  const valid = (c: unknown): c is PushChange => {
    const o = c as Partial<PushChange> | null;
    return (
      !!o &&
      typeof o === 'object' &&
      Number.isSafeInteger(o.project_id) &&
      typeof o.ref === 'string' &&
      typeof o.before === 'string' &&
      typeof o.after === 'string'
    );
  };
  if (!Array.isArray(value) || !value.every(valid)) throw new Error('argument changes missing');
  return value;
}

export const WORKERS: Record<QueueName, Perform> = {
  project_destroy: async (job, args) => ({ ...(await purgeDeleted(job, { projectId: idArg(args, 'project_id') })) }),
  group_destroy: async (job, args) => ({ ...(await purgeDeleted(job, { groupId: idArg(args, 'group_id') })) }),
  'cronjob:purge_deleted_namespaces': async (job) => ({ ...(await purgeDeleted(job)) }),
  'cronjob:remove_expired_members': async (job) => ({ expiredMemberships: await expireMemberships(job) }),
  'cronjob:prune_old_events': async (job) => ({ expiredEvents: await expireOldEvents(job) }),
  'cronjob:prune_rate_limits': async (job) => ({ staleRateLimits: await deleteStaleRateLimits(job) }),
  'cronjob:object_pool_cleanup': async (job) => ({
    unusedPools: await deleteUnusedObjectPools(job),
    replacedPacks: await deleteReplacedGitPacks(job),
    orphanedFiles: await deleteOrphanedStoredFiles(job),
  }),
  mailers: async (job) => ({ ...(await deliverNotifications(job)) }),
  'pipeline_processing:pipeline_success': async (job, args) => ({ ...(await mergeWaitingForPipeline(job, idArg(args, 'pipeline_id'))) }),
  post_receive: async (job, args) => {
    const push = { userId: idArg(args, 'user_id'), changes: changesArg(args), ...ciArg(args) };
    const pipelines = await createPipelinesAfterPush(job, push);
    const closed = await closeIssuesAfterPush(job, push);
    const repacks = await repackIfDue(
      job,
      push.changes.map((c) => c.project_id),
    );
    return { ...pipelines, ...closed, ...(repacks.length && { repacks }) };
  },
  // The repack's module (pack writing, deltas) loads with its first job, not with every request's workers.
  git_garbage_collect: async (job, args) => ({ ...(await (await import('../repositories/transport/repack.ts')).repack(job, idArg(args, 'project_id'))) }),
  update_merge_requests: async (job, args) => ({
    ...(await updateMergeRequestsAfterPush(job, { projectId: idArg(args, 'project_id'), userId: idArg(args, 'user_id'), ref: stringArg(args, 'ref') })),
  }),
};
