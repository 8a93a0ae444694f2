// The queue catalog: each named queue, the worker that runs its jobs, and that worker's Sidekiq options as GitLab
// sets them. GitLab's queue names where GitLab has the work (ProjectDestroyWorker in `project_destroy`, the cron
// workers in `cronjob:<name>`, mail in `mailers`); the cron jobs this service adds follow the same `cronjob:` naming.
// Names only (no worker code): the services that enqueue and the administrator's deletion load this, not the workers.

export interface QueueSpec {
  workerClass: string;
  /**
   * Sidekiq's `retry` option: runs after the first failure before the job is dead. GitLab's default is 3
   * (gitlab-foss!7294); CronjobQueue sets false (0): the next cron tick enqueues the job afresh.
   */
  retry: number;
  /** GitLab's `feature_category` of the worker (the job's `meta.feature_category`). */
  featureCategory: string;
  /**
   * Follow-up work a user waits to see (a merge request's new version after a push): the request that enqueues it
   * runs the queue right after its response (functions/app.ts), as Sidekiq would pick it up; the cron's run is the
   * fallback. Housekeeping waits for the cron.
   */
  prompt?: boolean;
}

export const QUEUES = {
  project_destroy: { workerClass: 'ProjectDestroyWorker', retry: 3, featureCategory: 'source_code_management' },
  group_destroy: { workerClass: 'GroupDestroyWorker', retry: 3, featureCategory: 'subgroups' },
  'cronjob:prune_old_events': { workerClass: 'PruneOldEventsWorker', retry: 0, featureCategory: 'users' },
  'cronjob:remove_expired_members': { workerClass: 'RemoveExpiredMembersWorker', retry: 0, featureCategory: 'authentication_and_authorization' },
  // The sweep behind project_destroy/group_destroy: whatever deletion is accepted and still not purged (a job an
  // administrator dropped, one that died).
  'cronjob:purge_deleted_namespaces': { workerClass: 'PurgeDeletedNamespacesWorker', retry: 0, featureCategory: 'subgroups' },
  'cronjob:prune_rate_limits': { workerClass: 'PruneRateLimitsWorker', retry: 0, featureCategory: 'authentication_and_authorization' },
  'cronjob:object_pool_cleanup': { workerClass: 'ObjectPoolCleanupWorker', retry: 0, featureCategory: 'gitaly' },
  // Delivery of the notification outbox (functions/notifications/deliver.ts): woken by the change that adds to the
  // outbox (notifications/record.ts), as GitLab's NotificationService hands each mail to a `mailers` job; the cron
  // tick also enqueues one, for what a run left.
  mailers: { workerClass: 'NotificationDeliveryWorker', retry: 3, featureCategory: 'issue_tracking', prompt: true },
  // After a branch moved (Git::BranchPushService): the open merge requests from or into it get their new version,
  // merge status and closing issues (MergeRequests::RefreshService#reload_merge_requests).
  update_merge_requests: { workerClass: 'UpdateMergeRequestsWorker', retry: 3, featureCategory: 'source_code_management', prompt: true },
  // After a pipeline succeeded (PipelineSuccessWorker): the merge requests waiting for it are merged as the users
  // who asked (AutoMerge::MergeWhenPipelineSucceedsService#process), outside the runner's request.
  'pipeline_processing:pipeline_success': { workerClass: 'PipelineSuccessWorker', retry: 3, featureCategory: 'continuous_integration', prompt: true },
  // After a push (PostReceive, which runs Git::BranchPushService/TagPushService and CreatePipelineWorker): the push
  // pipelines of the moved branches and tags, and the merge request pipelines of the open MRs from them.
  post_receive: { workerClass: 'PostReceive', retry: 3, featureCategory: 'source_code_management', prompt: true },
  // After a push that brought enough new objects (Repositories::HousekeepingService from PostReceive): the project's
  // repack (functions/repositories/transport/repack.ts). Prompt, as Sidekiq picks it up at once: the next clone
  // streams the new pack. Retry false, as GitLab's worker.
  git_garbage_collect: { workerClass: 'GitGarbageCollectWorker', retry: 0, featureCategory: 'gitaly', prompt: true },
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;

export const isQueueName = (name: string): name is QueueName => Object.hasOwn(QUEUES, name);

/** The queues whose jobs run right after the request that enqueued them. */
export const PROMPT_QUEUES: readonly QueueName[] = (Object.keys(QUEUES) as QueueName[]).filter((n) => (QUEUES[n] as QueueSpec).prompt === true);

/** Whether any of `names` is a prompt queue: then the request runs the prompt queues (and what their jobs enqueue). */
export function enqueuedPrompt(names: Iterable<string>): boolean {
  for (const name of names) if (isQueueName(name) && PROMPT_QUEUES.includes(name)) return true;
  return false;
}

/** The queues the cron tick enqueues one job of (unless one is pending), in the order they run. */
export const PERIODIC_QUEUES = [
  'cronjob:purge_deleted_namespaces',
  'cronjob:remove_expired_members',
  'cronjob:object_pool_cleanup',
  'cronjob:prune_old_events',
  'cronjob:prune_rate_limits',
  'mailers',
] as const satisfies readonly QueueName[];
