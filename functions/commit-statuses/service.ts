// Commit statuses (GitLab 13.6 lib/api/commit_statuses.rb): what other systems report on a commit, kept as
// GenericCommitStatus jobs of the `external` stage of the commit's newest pipeline (an `external` pipeline is made
// when the commit has none), and the listing of a commit's statuses, CI jobs included. `authenticate!` for both.
//
// A post runs in one transaction under a per-commit advisory lock and the pipeline's row lock, so two posts racing
// for one status name neither make two pipelines nor two open statuses: the second continues the first's (or is
// refused by its state machine). The pipeline's status then follows through the usual processing.
import * as q from '../../db/queries/commit-statuses.ts';
import { lockPipeline } from '../pipelines/lookups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { refsContaining, resolveRevision } from '../repositories/lookups.ts';
import type { Db } from '../../db/client.ts';
import type { CiStatus } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidMessage, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan } from '../lib/policy.ts';
import { reprocessPipeline } from '../pipelines/process.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import type { PostedState } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GenericCommitStatus's stage (`external`) and its index (EXTERNAL_STAGE_IDX), after every configured stage. */
const EXTERNAL_STAGE = 'external';
const EXTERNAL_STAGE_IDX = 1_000_000;

/** Gitlab::Utils.to_boolean's true values (`all`). */
const TRUTHY = /^(true|t|yes|y|1|on)$/i;

/** Rails' `present?` on a parameter: nil and blank text are absent (attributes_for_keys skips them). */
const present = <T>(v: T | undefined): v is T => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

export interface StatusListInput {
  projectRef: Ref | null;
  sha: string;
  ref?: string | undefined;
  stage?: string | undefined;
  name?: string | undefined;
  all?: string | undefined;
}

/** GET /projects/:id/repository/commits/:sha/statuses: statuses of the project's pipelines on exactly that sha. */
export async function listStatuses({ ctx, input }: Verb<StatusListInput>) {
  requireUser(ctx);
  const project = await findProject(ctx, input.projectRef);
  assertCan(ctx.actor, 'project:read_commit_status', projectFacts(project));
  if (!(await resolveRevision(ctx.db, project.project.id, input.sha))) throw notFound('Commit');
  const filter: q.StatusFilter = {
    projectId: project.project.id,
    // GitLab looks pipelines up by the parameter as given: a branch name or a short sha finds no statuses.
    sha: input.sha,
    ref: present(input.ref) ? input.ref : undefined,
    stage: present(input.stage) ? input.stage : undefined,
    name: present(input.name) ? input.name : undefined,
    all: TRUTHY.test(input.all ?? ''),
  };
  return pagedWithTotal(
    (limit, offset) => q.statusPage(ctx.db, filter, { limit, offset, countCap: COUNT_LIMIT }),
    (cap) => q.countStatuses(ctx.db, filter, cap),
  );
}

export interface PostStatusInput {
  sha: string;
  state: PostedState;
  ref?: string | undefined;
  targetUrl?: string | undefined;
  description?: string | undefined;
  name?: string | undefined;
  context?: string | undefined;
  coverage?: number | undefined;
  pipelineId?: number | undefined;
}

/** What a state change writes: the status and the timestamps CommitStatus's state machine sets on the way. */
interface Transition {
  status: CiStatus;
  queuedAt?: Date;
  startedAt?: Date;
  finishedAt?: Date;
  failureReason?: string;
}

/**
 * The API's events on a status that is new (`created`) or still open (`pending`, `running`): `pending` enqueues,
 * `running` enqueues when it can and then runs, the others finish it. An event the state machine refuses is
 * StateMachines::InvalidTransition's message, 400.
 */
function transition(from: 'created' | 'pending' | 'running', state: PostedState, now: Date): Transition {
  const refused = (event: string) =>
    invalidMessage(`Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`);
  switch (state) {
    case 'pending':
      if (from !== 'created') throw refused('enqueue');
      return { status: 'pending', queuedAt: now };
    case 'running':
      if (from === 'running') throw refused('run');
      return from === 'created' ? { status: 'running', queuedAt: now, startedAt: now } : { status: 'running', startedAt: now };
    case 'success':
      return { status: 'success', finishedAt: now };
    case 'failed':
      return { status: 'failed', finishedAt: now, failureReason: 'api_failure' };
    case 'canceled':
      return { status: 'canceled', finishedAt: now };
  }
}

const ALLOWED_SCHEMES = ['http', 'https'];

/** AddressableUrlValidator (http and https, local addresses allowed) and the 255-character limit on target_url. */
function targetUrlErrors(url: string): string[] {
  const errors: string[] = [];
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (!scheme || !ALLOWED_SCHEMES.includes(scheme)) errors.push(`is blocked: Only allowed schemes are ${ALLOWED_SCHEMES.join(', ')}`);
  else if (!URL.canParse(url)) errors.push('is blocked: URI is invalid');
  if (url.length > 255) errors.push('is too long (maximum is 255 characters)');
  return errors;
}

/**
 * POST /projects/:id/statuses/:sha. The status is the caller's open one of that name and ref in the pipeline, or a
 * new one; its pipeline is the commit's newest (narrowed by `ref` and `pipeline_id`), or a new `external` one on
 * `ref`, the pipeline's ref, or the first branch holding the commit.
 */
export async function postStatus({ ctx, input }: Verb<{ projectRef: Ref | null } & PostStatusInput>) {
  const user = requireUser(ctx);
  const project: ProjectView = await findProject(ctx, input.projectRef);
  const facts = projectFacts(project);
  assertCan(ctx.actor, 'project:create_commit_status', facts);
  // update_pipeline on the pipeline: a project rule here (no per-ref protection), so it is decided before writing.
  assertCan(ctx.actor, 'project:update_pipeline', facts);
  const projectId = project.project.id;
  const commit = await resolveRevision(ctx.db, projectId, input.sha);
  if (!commit) throw notFound('Commit');
  const name = input.name ?? input.context ?? 'default';
  const targetUrl = present(input.targetUrl) ? input.targetUrl.trim() : undefined;

  const written = await ctx.transaction(async (tx) => {
    await q.lockCommitStatuses(tx, projectId, commit.oid);
    const pipeline = await q.newestPipeline(tx, { projectId, sha: commit.oid, ref: input.ref, pipelineId: input.pipelineId });
    const ref = input.ref ?? pipeline?.ref ?? (await firstBranchHolding(tx, projectId, commit.oid));
    if (ref === undefined) throw notFound('References for commit');
    const pipelineId = pipeline?.id ?? (await q.insertExternalPipeline(tx, { projectId, sha: commit.oid, ref, userId: user.id }));
    await lockPipeline(tx, pipelineId);
    const open = await q.findOpenStatus(tx, { pipelineId, name, ref, userId: user.id });

    const errors: Record<string, string[]> = {};
    if (name.trim() === '') errors.name = ["can't be blank"];
    const urlErrors = targetUrl === undefined ? [] : targetUrlErrors(targetUrl);
    if (urlErrors.length) errors.target_url = urlErrors;
    if (name.trim() !== '' && (await q.nameTakenByOtherType(tx, pipelineId, name))) (errors.name ??= []).push('has already been taken');
    if (Object.keys(errors).length) throw validationFailed(errors);

    const change = transition((open?.status ?? 'created') as 'created' | 'pending' | 'running', input.state, new Date());
    const attributes = {
      ...(targetUrl !== undefined ? { targetUrl } : {}),
      ...(present(input.description) ? { description: input.description } : {}),
      ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
    };
    if (open) {
      await q.updateStatus(tx, open.id, { ...attributes, ...change });
      return { id: open.id, pipelineId };
    }
    const stageId = await q.ensureStage(tx, { pipelineId, projectId, name: EXTERNAL_STAGE, position: EXTERNAL_STAGE_IDX });
    const id = await q.insertStatus(tx, {
      projectId,
      pipelineId,
      stageId,
      type: 'GenericCommitStatus',
      name,
      stage: EXTERNAL_STAGE,
      stageIdx: EXTERNAL_STAGE_IDX,
      ref,
      userId: user.id,
      ...attributes,
      ...change,
    });
    await q.retireOlderStatuses(tx, pipelineId, name, id);
    return { id, pipelineId };
  });

  await reprocessPipeline(ctx, written.pipelineId);
  const row = await q.findStatus(ctx.db, written.id);
  // Gone only if the pipeline was deleted meanwhile.
  if (!row) throw recordNotFound();
  return row;
}

/** Repository#branch_names_contains(sha).first. */
async function firstBranchHolding(tx: Db, projectId: number, oid: string): Promise<string | undefined> {
  const found = await refsContaining(tx, { projectId, rev: oid, prefixes: ['refs/heads/'] });
  return found?.refs[0]?.slice('refs/heads/'.length);
}
