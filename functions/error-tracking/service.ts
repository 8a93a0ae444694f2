// Error-tracking settings verbs (GitLab's API::ErrorTracking::ProjectSettings with Projects::Operations::UpdateService
// and the ProjectErrorTrackingSetting model's validations). Checks in GitLab's order: signed in (401), the project
// visible (404), :admin_operations (403, maintainers), then parameters (400), then the setting's existence (404).
import * as q from '../../db/queries/error-tracking.ts';
import type { ErrorTrackingSettingRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { encryptSecret, requireEncryptionKey } from '../lib/encryption.ts';
import { conflict, notFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { log } from '../lib/log.ts';
import { assertCan, type ProjectFacts } from '../lib/policy.ts';
import { parseApiUrl, type ApiUrlErrors } from './api-url.ts';
import type { PatchSetting, PutSetting } from './schemas.ts';

/** A project the actor may administer, with its setting (null when none): what every verb here starts from. */
export interface SettingTarget {
  projectId: number;
  setting: ErrorTrackingSettingRow | null;
}

type Verb<I> = { ctx: RequestContext; input: { target: SettingTarget } & I };

const settingNotFound = () => notFound('Error Tracking Setting');
/** GitLab's answer to a write that lost a race (`StaleObjectError`). */
const resourceLock = () => conflict('409 Conflict: Resource lock');

/**
 * `before { authenticate! }` then `authorize! :admin_operations, user_project`, in one query with the setting row.
 * Routes call this before reading parameters: Grape runs `before` blocks ahead of parameter validation.
 */
export async function authorizeSettings(ctx: RequestContext, ref: Ref | null): Promise<SettingTarget> {
  requireUser(ctx);
  const row = ref ? await q.findProjectWithSetting(ctx.db, ctx.actor, ref) : undefined;
  if (!row) throw notFound('Project');
  const facts: ProjectFacts = {
    kind: 'project',
    visibilityLevel: row.visibilityLevel,
    accessLevel: row.accessLevel,
    archived: row.archived,
    features: row.features,
  };
  assertCan(ctx.actor, 'project:admin_operations', facts);
  return { projectId: row.projectId, setting: row.setting };
}

export function getSetting({ input }: Verb<object>): ErrorTrackingSettingRow {
  if (!input.target.setting) throw settingNotFound();
  return input.target.setting;
}

/** The model's rules on the setting as it would be saved (GitLab's newest: the Sentry fields only matter unintegrated). */
function validateSetting(after: { enabled: boolean; integrated: boolean; apiUrl: string | null; hasToken: boolean }, urlErrors: ApiUrlErrors = {}) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const [field, messages] of Object.entries(urlErrors)) for (const m of messages) add(field, m);
  if (after.enabled && !after.integrated) {
    if (!after.apiUrl) add('api_url', 'is a required field');
    if (!after.hasToken) add('token', 'is a required field');
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** PATCH: enables or disables an existing setting (and switches `integrated` when given). */
export async function patchSetting({ ctx, input }: Verb<PatchSetting>) {
  const current = input.target.setting;
  if (!current) throw settingNotFound();
  const integrated = input.integrated ?? current.integrated;
  validateSetting({ enabled: input.active, integrated, apiUrl: current.apiUrl, hasToken: current.encryptedToken !== null });
  const row = await q.updateSettingFlags(ctx.db, current.projectId, { enabled: input.active, integrated: input.integrated });
  if (!row) throw resourceLock();
  return row;
}

/** The AES-GCM additional data for a project's token: a ciphertext moved to another project's row will not decrypt. */
export const tokenContext = (projectId: number) => `project_error_tracking_settings.encrypted_token:${projectId}`;

/** PUT: creates the setting or replaces the given fields (see PutSettingInput for which are kept when omitted). */
export async function putSetting({ ctx, input }: Verb<PutSetting>) {
  const { target } = input;
  const current = target.setting;

  let connection: q.SettingWrite['connection'];
  let urlErrors: ApiUrlErrors = {};
  if (input.api_url !== undefined) {
    if (input.api_url === null) connection = { apiUrl: null, projectName: null, organizationName: null };
    else {
      const parsed = parseApiUrl(input.api_url);
      if (parsed.ok) connection = { apiUrl: input.api_url, projectName: parsed.parts.project, organizationName: parsed.parts.organization };
      else urlErrors = parsed.errors;
    }
  }
  // As saved: the given api_url (even an invalid one: its own errors say what is wrong with it), else the stored one.
  const apiUrlAfter = input.api_url !== undefined ? input.api_url : (current?.apiUrl ?? null);
  const hasTokenAfter = input.token !== undefined ? input.token !== null : (current?.encryptedToken ?? null) !== null;
  validateSetting({ enabled: input.active, integrated: input.integrated, apiUrl: apiUrlAfter, hasToken: hasTokenAfter }, urlErrors);

  let encryptedToken: string | null | undefined;
  if (typeof input.token === 'string') {
    const key = await requireEncryptionKey(ctx.config.encryptionKey).catch((error: unknown) => {
      log('error', 'error-tracking token not stored: the instance has no usable ENCRYPTION_KEY', { requestId: ctx.requestId, reason: String(error) });
      throw error;
    });
    encryptedToken = await encryptSecret(key, input.token, tokenContext(target.projectId));
  } else if (input.token === null) encryptedToken = null;

  const row = await q.upsertSetting(ctx.db, { projectId: target.projectId, enabled: input.active, integrated: input.integrated, connection, encryptedToken });
  if (!row) throw resourceLock();
  return row;
}
