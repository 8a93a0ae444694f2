// Pipeline triggers (GitLab 13.6 lib/api/triggers.rb, Ci::PipelineTriggerService). Maintainers manage a project's
// triggers (admin_build; changing one is its owner's alone: admin_trigger); anyone holding a trigger's token runs a
// pipeline as the trigger's owner, without signing in.
//
// Deviation from GitLab: the token is stored only as a SHA-256 digest, so it is shown in full once, in the answer
// that creates the trigger. Every later read shows its first 4 characters, to everyone: GitLab shows the owner the
// full token on every read (Ci::TriggerPresenter), which needs the token kept in clear.
import type { ProjectView } from '../../db/queries/projects.ts';
import { findProjectView } from '../projects/lookups.ts';
import * as q from '../../db/queries/triggers.ts';
import type { PipelineRow } from '../../db/schema/index.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import { anonymous, type Actor, type RequestContext } from '../lib/context.ts';
import { constantTimeEqual, sha256Hex } from '../lib/crypto.ts';
import { assertUnmodifiedSince, forbidden, invalidMessage, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan, can } from '../lib/policy.ts';
import { createPipeline } from '../pipelines/create.ts';
import { canRunOnRef, protectedRefError } from '../pipelines/ref-access.ts';
import { resolveBranchOrTag } from '../pipelines/service.ts';
import { repositoryInfo } from '../repositories/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type InProject<I> = Verb<{ project: ProjectView } & I>;

/** Ci::Trigger's token: `SecureRandom.hex(15)`, 30 hex characters. */
function newToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(15)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What a read shows of a trigger's token (see the deviation above): Ci::Trigger#short_token. */
export const shownToken = (t: { tokenPrefix: string }) => t.tokenPrefix;

/** The project whose triggers the signed-in actor manages (401 anonymous, 404 unseen, 403 below maintainer). */
export async function triggersProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:admin_build', projectFacts(project));
  return project;
}

export function listTriggers({ ctx, input }: InProject<object>) {
  const projectId = input.project.project.id;
  return pagedWithTotal(
    (limit, offset) => q.triggerPage(ctx.db, projectId, { limit, offset, countCap: COUNT_LIMIT }),
    (cap) => q.countTriggers(ctx.db, projectId, cap),
  );
}

/** One trigger of the project; `user_project.triggers.find` misses with 404 `Not found` (id null: out of range). */
export async function getTrigger({ ctx, input }: InProject<{ id: number | null }>): Promise<q.TriggerWithOwner> {
  const found = input.id === null ? undefined : await q.findTrigger(ctx.db, input.project.project.id, input.id);
  if (!found) throw recordNotFound();
  return found;
}

/** POST /projects/:id/triggers: owned by the caller; the answer carries the full token, the only time it is shown. */
export async function createTrigger({ ctx, input }: InProject<{ description: string }>) {
  const user = requireUser(ctx);
  const token = newToken();
  const trigger = await q.insertTrigger(ctx.db, {
    projectId: input.project.project.id,
    ownerId: user.id,
    description: input.description,
    tokenDigest: await sha256Hex(token),
    tokenPrefix: token.slice(0, 4),
  });
  return { trigger, owner: user, token };
}

/** PUT /projects/:id/triggers/:trigger_id: only its owner changes it (403 for other maintainers). */
export async function updateTrigger({ ctx, input }: InProject<{ id: number | null; description?: string | undefined }>): Promise<q.TriggerWithOwner> {
  const found = await getTrigger({ ctx, input });
  assertCan(ctx.actor, 'project:admin_trigger', { ...projectFacts(input.project), triggerOwnerId: found.trigger.ownerId });
  if (input.description === undefined || input.description === found.trigger.description) return found;
  const trigger = await q.updateTriggerDescription(ctx.db, found.trigger.id, input.description);
  if (!trigger) throw recordNotFound();
  return { trigger, owner: found.owner };
}

export async function deleteTrigger({ ctx, input }: InProject<{ id: number | null; ifUnmodifiedSince?: string | undefined }>): Promise<void> {
  const found = await getTrigger({ ctx, input });
  assertUnmodifiedSince(input.ifUnmodifiedSince, found.trigger.updatedAt);
  if (!(await q.deleteTrigger(ctx.db, found.trigger.id))) throw recordNotFound();
}

export interface TriggerCall {
  projectRef: Ref | null;
  ref: string;
  token: string;
  variables: Readonly<Record<string, unknown>>;
  /** The request's parameters as Grape holds them, for TRIGGER_PAYLOAD. */
  payload: Readonly<Record<string, unknown>>;
  /** The request came from a pipeline webhook (`X-Gitlab-Event: Pipeline Hook`). */
  pipelineHook: boolean;
}

/**
 * Ci::PipelineTriggerService's TRIGGER_PAYLOAD: the parameters but the token, as ActiveSupport's to_json writes
 * them (`<`, `>`, `&` and the two line separators escaped).
 */
function payloadJson(params: Readonly<Record<string, unknown>>): string {
  const { token: _token, ...shown } = params;
  return JSON.stringify(shown).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Ci::HasVariable's key rule. */
const VARIABLE_KEY = /^[a-zA-Z0-9_]+$/;
const PAYLOAD_KEY = 'TRIGGER_PAYLOAD';

/** Chain errors as the trigger API renders them: 400 `{"message": {"base": [...]}}`. */
const baseErrors = (errors: string[]) => validationFailed({ base: errors });

/**
 * POST /projects/:id/trigger/pipeline. A token that names no trigger of this project is 404 `Not Found`, whether the
 * project exists or not (GitLab does not leak it). The pipeline's user is the trigger's owner, who must still be
 * able to create pipelines; an invalid `.gitlab-ci.yml` is kept as a failed pipeline (save_on_errors).
 */
export async function triggerPipeline({ ctx, input }: Verb<TriggerCall>): Promise<{ project: ProjectView; pipeline: PipelineRow }> {
  // A pipeline webhook pointed at the trigger URL would start a pipeline per pipeline: refused.
  if (input.pipelineHook) throw forbidden();
  const entries = Object.entries(input.variables);
  if (!entries.every(([, value]) => typeof value === 'string')) throw invalidMessage('variables needs to be a map of key-valued strings');

  const digest = await sha256Hex(input.token);
  const found = await q.findTriggerByDigest(ctx.db, digest);
  const trigger = found && (await constantTimeEqual(found.trigger.tokenDigest, digest)) ? found : undefined;
  const owner: Actor = trigger?.owner ? readerActor(trigger.owner) : anonymous;
  const project = input.projectRef ? await findProjectView(ctx.db, owner, input.projectRef) : undefined;
  if (!project || !trigger || trigger.trigger.projectId !== project.project.id) throw notFound();

  // Chain::Validate::Abilities, then ::Repository (Gitlab::Git.ref_name: a full ref names its branch or tag).
  const user = owner.user;
  if (!user || user.state === 'blocked' || !can(owner, 'project:create_pipeline', projectFacts(project)))
    throw baseErrors(['Insufficient permissions to create a new pipeline']);
  const ref = input.ref.replace(/^refs\/(heads|tags)\//, '');
  const [target, repository] = await Promise.all([resolveBranchOrTag(ctx, project.project.id, ref), repositoryInfo(ctx, project.project.id)]);
  if (!target) throw baseErrors(['Reference not found']);
  // allowed_to_write_ref? as the owner: a demoted owner's trigger no longer runs on a protected ref.
  if (!canRunOnRef({ ...ctx, actor: owner }, projectFacts(project), repository, ref, target.tag)) throw baseErrors([protectedRefError(ref)]);
  // Chain::Create's save!: each variable's key (Ci::HasVariable), unique in the pipeline.
  if (entries.some(([key]) => !VARIABLE_KEY.test(key) || key.length > 255 || key === PAYLOAD_KEY)) {
    throw baseErrors(['Failed to persist the pipeline: Validation failed: Variables is invalid']);
  }

  const outcome = await createPipeline(ctx, {
    project: project.project,
    ref,
    tag: target.tag,
    sha: target.sha,
    source: 'trigger',
    userId: user.id,
    triggerId: trigger.trigger.id,
    variables: [
      ...entries.map(([key, value]) => ({ key, value: value as string, variableType: 'env_var' as const })),
      { key: PAYLOAD_KEY, value: payloadJson(input.payload), variableType: 'file' as const },
    ],
    saveOnErrors: true,
    repository,
  });
  if (!outcome.ok) throw baseErrors(outcome.errors);
  await q.touchTrigger(ctx.db, trigger.trigger.id, outcome.pipeline.createdAt);
  return { project, pipeline: outcome.pipeline };
}
