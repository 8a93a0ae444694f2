// Deploy key verbs (GitLab 13.6's lib/api/deploy_keys.rb, Projects::EnableDeployKeyService, DeployKeysProject).
// Every project verb is for the project's maintainers (`authorize_admin_project`, checked before the parameters are
// read); the instance listing is for administrators. Records no events (GitLab records none for deploy keys).
import * as q from '../../db/queries/deploy-keys.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { KeyRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { requireAdmin } from '../users/service.ts';
import { deployKeyErrors, titleErrors } from './schemas.ts';
import { readPublicKey, sanitizePublicKey } from './ssh-key.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type InProject<I = object> = Verb<I & { project: ProjectView }>;

/** The project whose deploy keys the actor administers: 401 anonymous, 404 unseen, 403 below maintainer. */
export async function authorizeProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:admin_deploy_keys', projectFacts(project));
  return project;
}

/** GET /deploy_keys: every deploy key of the instance, for administrators. */
export function listAllDeployKeys({ ctx }: Verb<object>) {
  requireAdmin(ctx);
  return {
    fetch: (limit: number, offset: number) => q.listDeployKeys(ctx.db, limit, offset),
    count: (limit: number) => q.countDeployKeys(ctx.db, limit),
  };
}

export function listProjectDeployKeys({ ctx, input }: InProject) {
  const projectId = input.project.project.id;
  return {
    fetch: (limit: number, offset: number) => q.listProjectDeployKeys(ctx.db, projectId, limit, offset),
    count: (limit: number) => q.countProjectDeployKeys(ctx.db, projectId, limit),
  };
}

/** The project's key (GitLab's `find_by!`: 404 `Not found` when the project does not have it). */
async function findLink(ctx: RequestContext, project: ProjectView, keyId: number | null): Promise<q.DeployKeyLink> {
  const link = keyId === null ? undefined : await q.findProjectDeployKey(ctx.db, project.project.id, keyId);
  if (!link) throw recordNotFound();
  return link;
}

export const getProjectDeployKey = ({ ctx, input }: InProject<{ keyId: number | null }>) => findLink(ctx, input.project, input.keyId);

/** Postgres foreign key violation (SQLSTATE 23503), whichever driver raised it (some wrap it in `cause`). */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23503') return true;
  return false;
}

/** Enables `key` in the project, as it is when it already was; a key deleted meanwhile is not found. */
async function enableIn(ctx: RequestContext, project: ProjectView, key: KeyRow, canPush: boolean): Promise<q.DeployKeyLink> {
  await q.insertLink(ctx.db, project.project.id, key.id, canPush).catch((e: unknown) => {
    if (isForeignKeyViolation(e)) throw notFound('Deploy Key');
    throw e;
  });
  const link = await q.findProjectDeployKey(ctx.db, project.project.id, key.id);
  if (!link) throw notFound('Deploy Key');
  return link;
}

/**
 * POST /projects/:id/deploy_keys, in GitLab's order: the project's own key with this text (as it is, can_push
 * untouched); else a deploy key with this text the actor may enable (enabled here); else a new key, validated as the
 * Key model does. Who may enable a key from elsewhere is narrower than 13.6's User#accessible_deploy_keys (any
 * membership of a project holding it): maintainers of such a project, the role that sees its keys at all.
 */
export async function addDeployKey({ ctx, input }: InProject<{ key: string; title: string; canPush: boolean }>): Promise<q.DeployKeyLink> {
  const user = requireUser(ctx);
  const { project } = input;
  const text = input.key.trim();
  const own = await q.findProjectDeployKeyByText(ctx.db, project.project.id, text);
  if (own) return own;
  const accessible = await q.findAccessibleDeployKeyByText(ctx.db, ctx.actor, text);
  if (accessible) return enableIn(ctx, project, accessible, input.canPush);

  const key = await sanitizePublicKey(text);
  const facts = await readPublicKey(key);
  const errors = deployKeyErrors({ title: input.title, key, facts, fingerprintTaken: false });
  if (Object.keys(errors).length || !facts) {
    // Rails runs every validation: a taken fingerprint is reported beside the other errors.
    const taken = facts !== null && (await q.fingerprintTaken(ctx.db, facts.fingerprint));
    throw validationFailed(taken ? deployKeyErrors({ title: input.title, key, facts, fingerprintTaken: true }) : errors);
  }

  const keyId = await q.insertDeployKeyWithLink(ctx.db, project.project.id, input.canPush, {
    title: input.title,
    key,
    fingerprint: facts.fingerprint,
    fingerprintSha256: facts.fingerprintSha256,
    userId: user.id,
  });
  if (keyId !== undefined) return (await q.findProjectDeployKey(ctx.db, project.project.id, keyId))!;
  // The fingerprint is taken. By a concurrent add of this very key (committed when the insert gave way), which is
  // answered as if it had come first, before this request's lookups: its link here, or the key enabled here. Else
  // for good (a key the actor cannot reach, or this key under another comment): Key's uniqueness error.
  const raced = await q.findProjectDeployKeyByText(ctx.db, project.project.id, key);
  if (raced) return raced;
  const reachable = await q.findAccessibleDeployKeyByText(ctx.db, ctx.actor, key);
  if (reachable) return enableIn(ctx, project, reachable, input.canPush);
  throw validationFailed({ 'deploy_key.fingerprint': ['has already been taken'] });
}

/**
 * PUT /projects/:id/deploy_keys/:key_id: the push right, and the title where the actor may update the key (a title
 * it may not change is ignored, as GitLab ignores it).
 */
export async function updateDeployKey({
  ctx,
  input,
}: InProject<{ keyId: number | null; title?: string | undefined; canPush?: boolean | undefined }>): Promise<q.DeployKeyLink> {
  const link = await findLink(ctx, input.project, input.keyId);
  const mayRetitle = can(ctx.actor, 'project:update_deploy_key_title', { ...projectFacts(input.project), deployKeyPublic: link.key.public });
  const title = mayRetitle ? input.title : undefined;
  const errors = title === undefined ? [] : titleErrors(title);
  if (errors.length) throw validationFailed({ 'deploy_key.title': errors });
  await q.updateLinkAndKey(ctx.db, link.link, { canPush: input.canPush, title });
  return findLink(ctx, input.project, link.key.id);
}

/** POST /projects/:id/deploy_keys/:key_id/enable: a key the actor may enable (404 `Deploy Key Not Found` otherwise). */
export async function enableDeployKey({ ctx, input }: InProject<{ keyId: number | null }>): Promise<KeyRow> {
  const key = input.keyId === null ? undefined : await q.findAccessibleDeployKey(ctx.db, ctx.actor, input.keyId);
  if (!key) throw notFound('Deploy Key');
  return (await enableIn(ctx, input.project, key, false)).key;
}

/** DELETE /projects/:id/deploy_keys/:key_id: the link goes; a private key no other project uses goes with it. */
export async function removeDeployKey({ ctx, input }: InProject<{ keyId: number | null; ifUnmodifiedSince?: string | undefined }>): Promise<void> {
  const link = input.keyId === null ? undefined : await q.findProjectDeployKey(ctx.db, input.project.project.id, input.keyId);
  if (!link) throw notFound('Deploy Key');
  assertUnmodifiedSince(input.ifUnmodifiedSince, link.link.updatedAt);
  if (!(await q.deleteLink(ctx.db, input.project.project.id, link.key.id))) throw notFound('Deploy Key');
}
