// Enqueueing with GitLab's context: the job's `meta` is what Gitlab::ApplicationContext holds for the request that
// asked for it (the user, the project, its root namespace, the plan, the endpoint as caller_id), so an
// administrator can find the jobs of one user, project or endpoint. The job row is a statement for the change's own
// batch or transaction: it exists exactly when the change committed. Each records its queue in the request's
// `enqueued`, so the app can run a prompt queue after the response.
import type { Db } from '../../db/client.ts';
import { enqueueJobStatement, enqueueProjectJobStatement, enqueueUnlessPendingStatement } from '../../db/queries/background-jobs.ts';
import type { JobMeta } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { QUEUES, type QueueName } from './queues.ts';

/** What the job is about: a project or a group, by full path (as the caller knew it, before any rename). */
export interface JobSubject {
  fullPath: string;
}

/**
 * The context metadata of a job the request enqueues. `subscription_plan` is the instance's tier (one plan for the
 * whole instance here); keys with no value are left out, as GitLab's context omits them.
 */
function jobMeta(ctx: Pick<RequestContext, 'actor' | 'config' | 'callerId'>, queue: QueueName, subject?: JobSubject): JobMeta {
  const meta: JobMeta = {
    user: ctx.actor.user?.username,
    root_namespace: subject?.fullPath.split('/')[0],
    subscription_plan: ctx.config.instanceTier,
    caller_id: ctx.callerId,
    feature_category: QUEUES[queue].featureCategory,
  };
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined)) as JobMeta;
}

type EnqueuingContext = Pick<RequestContext, 'actor' | 'config' | 'callerId' | 'enqueued'>;

/** A project's job: its meta names the project and its root namespace. */
export function projectJobStatement(db: Db, ctx: EnqueuingContext, queue: QueueName, project: JobSubject, args: Record<string, unknown>) {
  ctx.enqueued.add(queue);
  return enqueueJobStatement(db, { queue, workerClass: QUEUES[queue].workerClass, args, meta: { ...jobMeta(ctx, queue, project), project: project.fullPath } });
}

/** A job about the project with this id: the statement reads its path for the meta. */
export function projectJobByIdStatement(db: Db, ctx: EnqueuingContext, queue: QueueName, projectId: number, args: Record<string, unknown>) {
  ctx.enqueued.add(queue);
  return enqueueProjectJobStatement(db, { queue, workerClass: QUEUES[queue].workerClass, args, meta: jobMeta(ctx, queue) }, projectId);
}

/** A group's job: its meta names the group's root namespace. */
export function groupJobStatement(db: Db, ctx: EnqueuingContext, queue: QueueName, group: JobSubject, args: Record<string, unknown>) {
  ctx.enqueued.add(queue);
  return enqueueJobStatement(db, { queue, workerClass: QUEUES[queue].workerClass, args, meta: jobMeta(ctx, queue, group) });
}

/**
 * Wakes the worker of `queue` (one that drains an outbox, as `mailers` drains the notifications): its job unless one
 * is pending, in the change's own batch. The job carries no arguments; the outbox rows are its work.
 */
export function wakeWorkerStatement(db: Db, ctx: EnqueuingContext, queue: QueueName) {
  ctx.enqueued.add(queue);
  return enqueueUnlessPendingStatement(db, { queue, workerClass: QUEUES[queue].workerClass, args: {}, meta: jobMeta(ctx, queue) });
}
