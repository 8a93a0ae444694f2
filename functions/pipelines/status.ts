// CI job, stage and pipeline statuses as GitLab 13.6 computes them: the composite status
// (Gitlab::Ci::Status::Composite), the atomic processing of a pipeline (AtomicProcessingService with
// its StatusCollection, and ProcessBuildService for the per-job decision), the transitions the stored
// stage and pipeline rows make when processing sets their status (Ci::Stage / Ci::Pipeline state
// machines), and the presentation fields of GraphQL's DetailedStatus (Gitlab::Ci::Status::*).
// Pure: no database, no HTTP. Callers load the latest (non-retried) jobs, call these, and write back.

export const JOB_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

// The groups of Ci::HasStatus.
export const ACTIVE_STATUSES: readonly JobStatus[] = ['waiting_for_resource', 'preparing', 'pending', 'running'];
export const COMPLETED_STATUSES: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];
export const BLOCKED_STATUSES: readonly JobStatus[] = ['manual', 'scheduled'];
export const STARTED_STATUSES: readonly JobStatus[] = ['running', 'success', 'failed', 'skipped', 'manual', 'scheduled'];
/** Cancelable scope of HasStatus: what "cancel pipeline" touches. */
export const CANCELABLE_STATUSES: readonly JobStatus[] = ['running', 'waiting_for_resource', 'preparing', 'pending', 'created', 'scheduled'];
/** Alive scope of HasStatus. */
export const ALIVE_STATUSES: readonly JobStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'];
/** Order GitLab uses when it sorts by status (worst first). */
export const ORDERED_STATUSES: readonly JobStatus[] = [
  'failed',
  'preparing',
  'pending',
  'running',
  'waiting_for_resource',
  'manual',
  'scheduled',
  'canceled',
  'success',
  'skipped',
  'created',
];
/** Allowed to fail and ended like this: counts as a passed job with a warning. */
export const PASSED_WITH_WARNINGS_STATUSES: readonly JobStatus[] = ['failed', 'canceled'];
/** Allowed to fail and in one of these: left out of the composite (a manual job nobody has to play). */
export const EXCLUDE_IGNORED_STATUSES: readonly JobStatus[] = ['manual', 'failed', 'canceled'];

export const isJobStatus = (value: string): value is JobStatus => (JOB_STATUSES as readonly string[]).includes(value);
export const isCompleted = (status: JobStatus): boolean => COMPLETED_STATUSES.includes(status);
export const isActive = (status: JobStatus): boolean => ACTIVE_STATUSES.includes(status);
export const isBlocked = (status: JobStatus): boolean => BLOCKED_STATUSES.includes(status);

export interface StatusItem {
  readonly status: JobStatus;
  readonly allowFailure: boolean;
}

// What one job contributes to a composite: its status, or one of the two synthetic buckets.
type Bucket = JobStatus | 'success_with_warnings' | 'ignored';

function bucketOf(item: StatusItem): Bucket {
  // Warnings are tested first: a failed job allowed to fail is a warning, not ignored.
  if (item.allowFailure && PASSED_WITH_WARNINGS_STATUSES.includes(item.status)) return 'success_with_warnings';
  if (item.allowFailure && EXCLUDE_IGNORED_STATUSES.includes(item.status)) return 'ignored';
  return item.status;
}

function bucketsOf(items: readonly StatusItem[]): ReadonlySet<Bucket> {
  return new Set(items.map(bucketOf));
}

// The set holds nothing but (some of) these buckets.
function onlyOf(set: ReadonlySet<Bucket>, ...names: Bucket[]): boolean {
  const matching = names.filter((name) => set.has(name)).length;
  return matching > 0 && matching === set.size;
}

function anyOf(set: ReadonlySet<Bucket>, ...names: Bucket[]): boolean {
  return names.some((name) => set.has(name));
}

/**
 * Gitlab::Ci::Status::Composite#status. null for no jobs at all (callers decide: a stored stage or
 * pipeline becomes 'skipped', the processing collection reads it as 'success'). The rules are order
 * dependent, exactly as GitLab lists them.
 */
export function compositeStatus(items: readonly StatusItem[]): JobStatus | null {
  const set = bucketsOf(items);
  if (set.size === 0) return null;
  if (onlyOf(set, 'skipped', 'ignored')) return 'skipped';
  if (onlyOf(set, 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (onlyOf(set, 'created', 'success_with_warnings', 'ignored')) return 'created';
  if (onlyOf(set, 'preparing', 'success_with_warnings', 'ignored')) return 'preparing';
  if (onlyOf(set, 'canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (onlyOf(set, 'pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (anyOf(set, 'running', 'pending')) return 'running';
  if (anyOf(set, 'waiting_for_resource')) return 'waiting_for_resource';
  if (anyOf(set, 'manual')) return 'manual';
  if (anyOf(set, 'scheduled')) return 'scheduled';
  if (anyOf(set, 'preparing')) return 'preparing';
  // Some jobs finished and others still wait for them: the group is under way.
  if (anyOf(set, 'created')) return 'running';
  return 'failed';
}

/** Composite#warnings?: some job allowed to fail did fail (or was canceled). */
export function hasWarnings(items: readonly StatusItem[]): boolean {
  return items.some((item) => bucketOf(item) === 'success_with_warnings');
}

/**
 * Status of a stage from its latest jobs (Ci::Stage#latest_stage_status, also what the legacy stages
 * shown by the API compute): no job reads as skipped.
 */
export function stageStatus(jobs: readonly StatusItem[]): JobStatus {
  return compositeStatus(jobs) ?? 'skipped';
}

/**
 * Status of a pipeline from all its latest jobs. GitLab never keeps a pipeline without jobs (creation
 * fails with "No stages / jobs for this pipeline."), so the empty case is only a safe default: skipped,
 * as Pipeline#latest_builds_status reads it.
 */
export function pipelineStatus(jobs: readonly StatusItem[]): JobStatus {
  return compositeStatus(jobs) ?? 'skipped';
}

// ---------------------------------------------------------------------------------------------
// Processing

export const JOB_WHENS = ['on_success', 'on_failure', 'always', 'manual', 'delayed'] as const;
export type JobWhen = (typeof JOB_WHENS)[number];

export interface ProcessableJob extends StatusItem {
  readonly id: number;
  readonly name: string;
  readonly stageIdx: number;
  readonly when: JobWhen;
  /** null: the job follows stages; a list (even empty): the job follows only these jobs (DAG). */
  readonly needs: readonly string[] | null;
}

export interface StatusChange {
  readonly id: number;
  readonly status: JobStatus;
}

/**
 * ProcessBuildService#valid_statuses_for_build as of 13.6: an on_success DAG job only runs after its
 * needs succeeded (a skipped need skips it); manual and delayed jobs still accept a skipped need (13.8's
 * skip_dag_manual_and_delayed_jobs changed that later, default off).
 */
export function validPriorStatuses(when: JobWhen, dag: boolean): readonly JobStatus[] {
  switch (when) {
    case 'on_success':
      return dag ? ['success'] : ['success', 'skipped'];
    case 'manual':
    case 'delayed':
      return ['success', 'skipped'];
    case 'on_failure':
      return ['failed'];
    case 'always':
      return ['success', 'failed', 'skipped'];
  }
}

/**
 * What a created job becomes once the jobs it waits for are complete (ProcessBuildService#execute):
 * delayed jobs are scheduled (schedulable? comes first), manual jobs wait for a play (action?), others
 * are enqueued; a job whose condition does not hold is skipped.
 */
export function nextJobStatus(job: Pick<ProcessableJob, 'when' | 'needs'>, priorStatus: JobStatus): JobStatus {
  if (!validPriorStatuses(job.when, job.needs !== null).includes(priorStatus)) return 'skipped';
  if (job.when === 'delayed') return 'scheduled';
  if (job.when === 'manual') return 'manual';
  return 'pending';
}

// The StatusCollection: every latest job of the pipeline, updated in place while the pass runs so a
// job sees the statuses its predecessors got earlier in the same pass.
class StatusCollection {
  private readonly byName = new Map<string, ProcessableJob>();

  constructor(private readonly jobs: ProcessableJob[]) {
    // index_by(name) over jobs ordered by stage: the last one of a name wins.
    for (const job of jobs) this.byName.set(job.name, job);
  }

  set(id: number, status: JobStatus): void {
    const index = this.jobs.findIndex((job) => job.id === id);
    const current = this.jobs[index];
    if (!current) return;
    const updated = { ...current, status };
    this.jobs[index] = updated;
    if (this.byName.get(current.name)?.id === id) this.byName.set(current.name, updated);
  }

  current(id: number): ProcessableJob | undefined {
    return this.jobs.find((job) => job.id === id);
  }

  inStage(stageIdx: number): ProcessableJob[] {
    return this.jobs.filter((job) => job.stageIdx === stageIdx);
  }

  priorToStage(stageIdx: number): JobStatus {
    return statusForArray(
      this.jobs.filter((job) => job.stageIdx < stageIdx),
      false,
    );
  }

  ofNames(names: readonly string[]): JobStatus {
    // Names of jobs not in the pipeline (an optional need ruled out) are simply not there.
    const found = names.flatMap((name) => this.byName.get(name) ?? []);
    return statusForArray(found, true);
  }
}

function statusForArray(jobs: readonly StatusItem[], dag: boolean): JobStatus {
  // A DAG job is blocked while any need is not complete, including a manual need nobody played yet
  // (13.6 keeps that job created rather than skipping it).
  if (dag && jobs.some((job) => !isCompleted(job.status))) return 'pending';
  return compositeStatus(jobs) ?? 'success';
}

// Jobs of one stage in an order where a job comes after the jobs of the same stage it needs (GitLab
// sorts a stage's jobs with the DAG order before processing them); otherwise by id.
function orderedForProcessing(jobs: readonly ProcessableJob[]): ProcessableJob[] {
  const byId = [...jobs].sort((a, b) => a.id - b.id);
  const names = new Set(byId.map((job) => job.name));
  const done = new Set<string>();
  const result: ProcessableJob[] = [];
  let pending = byId;
  while (pending.length > 0) {
    const ready = pending.filter((job) => (job.needs ?? []).every((need) => !names.has(need) || done.has(need) || need === job.name));
    // A cycle cannot come from a valid config; fall back to id order instead of looping.
    const batch = ready.length > 0 ? ready : pending;
    for (const job of batch) {
      result.push(job);
      done.add(job.name);
    }
    pending = pending.filter((job) => !batch.includes(job));
  }
  return result;
}

/**
 * One pass of AtomicProcessingService over the latest jobs of a pipeline. Stages are processed in
 * order and each created job is decided from the statuses of the jobs before its stage (stage
 * scheduling) or of the jobs it needs (DAG); a job whose predecessors are not complete stays created.
 * Returns the jobs whose status changed, in processing order.
 */
export function processPipeline(jobs: readonly ProcessableJob[]): StatusChange[] {
  const ordered = [...jobs].sort((a, b) => a.stageIdx - b.stageIdx || a.id - b.id);
  const collection = new StatusCollection(ordered);
  const changes: StatusChange[] = [];
  const stages = [...new Set(ordered.map((job) => job.stageIdx))];
  for (const stageIdx of stages) {
    const created = collection.inStage(stageIdx).filter((job) => job.status === 'created');
    for (const candidate of orderedForProcessing(created)) {
      const job = collection.current(candidate.id) ?? candidate;
      const prior = job.needs === null ? collection.priorToStage(job.stageIdx) : collection.ofNames(job.needs);
      if (!isCompleted(prior)) continue;
      const next = nextJobStatus(job, prior);
      if (next === job.status) continue;
      collection.set(job.id, next);
      changes.push({ id: job.id, status: next });
    }
  }
  return changes;
}

/** processPipeline applied: the same jobs with their new statuses. */
export function applyChanges<T extends { readonly id: number; readonly status: JobStatus }>(jobs: readonly T[], changes: readonly StatusChange[]): T[] {
  const next = new Map(changes.map((change) => [change.id, change.status]));
  return jobs.map((job) => {
    const status = next.get(job.id);
    return status === undefined ? job : { ...job, status };
  });
}

// ---------------------------------------------------------------------------------------------
// Stored stage and pipeline rows: processing calls set_status(composite) on them, and their state
// machines do not take every transition, so the stored status can differ from the composite
// (a skipped stage whose manual job is played becomes running, a manual pipeline stays manual while
// its played job is only pending).

type Holder = 'stage' | 'pipeline';

// Where the `enqueue` event may go from, per holder (13.6 state machines); any other event goes
// from any other state.
const ENQUEUE_TO_PENDING: Record<Holder, readonly JobStatus[]> = {
  stage: ['created', 'waiting_for_resource', 'preparing'],
  pipeline: ['created', 'waiting_for_resource', 'preparing', 'skipped', 'scheduled'],
};
const ENQUEUE_TO_RUNNING: Record<Holder, readonly JobStatus[]> = {
  stage: ['success', 'failed', 'canceled', 'skipped'],
  pipeline: ['success', 'failed', 'canceled'],
};

function nextStoredStatus(holder: Holder, current: JobStatus, computed: JobStatus): JobStatus {
  // set_status('created') leaves the row alone.
  if (computed === 'created') return current;
  if (computed === 'pending') {
    if (ENQUEUE_TO_PENDING[holder].includes(current)) return 'pending';
    if (ENQUEUE_TO_RUNNING[holder].includes(current)) return 'running';
    return current;
  }
  return computed;
}

/** Ci::Stage#set_status(computed) from the stored `current`. */
export function nextStageStatus(current: JobStatus, computed: JobStatus): JobStatus {
  return nextStoredStatus('stage', current, computed);
}

/** Ci::Pipeline#set_status(computed) from the stored `current`. */
export function nextPipelineStatus(current: JobStatus, computed: JobStatus): JobStatus {
  return nextStoredStatus('pipeline', current, computed);
}

/** What atomic processing computes for a stage (no job reads as success there, never as skipped). */
export function processingStageStatus(jobs: readonly StatusItem[]): JobStatus {
  return compositeStatus(jobs) ?? 'success';
}

// ---------------------------------------------------------------------------------------------
// Presentation (GraphQL DetailedStatus, REST detailed_status)

export interface DetailedStatus {
  readonly group: string;
  readonly icon: string;
  readonly favicon: string;
  readonly label: string;
  readonly text: string;
  /** status_tooltip: the core status' label, even when an extended status changed the label. */
  readonly tooltip: string;
  readonly hasDetails: boolean;
}

type Presentation = Omit<DetailedStatus, 'tooltip' | 'hasDetails'>;

const core = (status: string, text: string, label: string, icon = `status_${status}`, favicon = `favicon_status_${status}`): Presentation => ({
  group: status,
  icon,
  favicon,
  label,
  text,
});

// Gitlab::Ci::Status::<Status> (lib/gitlab/ci/status/*.rb).
const CORE: Record<JobStatus, Presentation> = {
  created: core('created', 'created', 'created'),
  waiting_for_resource: {
    ...core('waiting_for_resource', 'waiting', 'waiting for resource', 'status_pending', 'favicon_status_pending'),
    group: 'waiting-for-resource',
  },
  preparing: core('preparing', 'preparing', 'preparing'),
  pending: core('pending', 'pending', 'pending'),
  running: core('running', 'running', 'running'),
  success: core('success', 'passed', 'passed'),
  failed: core('failed', 'failed', 'failed'),
  canceled: core('canceled', 'canceled', 'canceled'),
  skipped: core('skipped', 'skipped', 'skipped'),
  manual: core('manual', 'manual', 'manual action'),
  scheduled: core('scheduled', 'delayed', 'delayed'),
};

export interface DetailedStatusOptions {
  /** The composite had allowed failures (pipeline/stage has_warnings?). */
  readonly hasWarnings?: boolean;
  /** Pipeline statuses get Pipeline::Blocked / Pipeline::Delayed wording; stages and jobs do not. */
  readonly subject?: 'pipeline' | 'stage' | 'job';
  /** has_details?: Pipeline/Stage::Common answer "can the user read the pipeline", which a caller showing it has checked. */
  readonly hasDetails?: boolean;
}

/** The presentation fields of a status, with the extended statuses GitLab's factories apply. */
export function detailedStatus(status: JobStatus, options: DetailedStatusOptions = {}): DetailedStatus {
  const base = CORE[status];
  const common = { tooltip: base.label, hasDetails: options.hasDetails ?? true };
  // SuccessWarning (pipelines and stages): same favicon and tooltip as success, warning look.
  if (status === 'success' && options.hasWarnings) {
    return { ...base, ...common, group: 'success-with-warnings', icon: 'status_warning', label: 'passed with warnings' };
  }
  if (options.subject === 'pipeline' && status === 'manual') {
    return { ...base, ...common, text: 'blocked', label: 'waiting for manual action' };
  }
  if (options.subject === 'pipeline' && status === 'scheduled') {
    return { ...base, ...common, text: 'delayed', label: 'waiting for delayed job' };
  }
  return { ...base, ...common };
}
