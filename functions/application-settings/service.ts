// The instance settings (GET/PUT /application/settings, administrators) and what other domains read of them
// (instanceSettings: the defaults new projects, groups and users take, the visibility levels only administrators
// may set). Secret settings are stored encrypted (lib/encryption.ts) and shown only to administrators.
import * as q from '../../db/queries/application-settings.ts';
import type { Db } from '../../db/client.ts';
import type { RequestContext } from '../lib/context.ts';
import { decryptSecret, encryptSecret, requireEncryptionKey } from '../lib/encryption.ts';
import { validationFailed } from '../lib/errors.ts';
import { isAdministrator, Visibility, visibilityName } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { requireAdmin } from '../users/service.ts';
import { ALIASES, SETTINGS, type SettingKey } from './catalog.ts';
import type { UpdateSettingsInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };
export type InstanceSettings = Record<SettingKey, unknown>;

const isSecret = (key: SettingKey) => 'secret' in SETTINGS[key];
/** GCM additional data: a secret's ciphertext decrypts only as the setting it was written for. */
const context = (key: SettingKey) => `application_settings:${key}`;

/** The settings, defaults filled in; secrets stay as stored (ciphertext) unless `decrypt` is given. */
async function values(db: Db, decrypt?: (key: SettingKey, stored: string) => Promise<string>) {
  const row = await q.readApplicationSettings(db);
  const stored = row?.settings ?? {};
  const out = {} as InstanceSettings;
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const value = key in stored ? stored[key] : SETTINGS[key].default;
    out[key] = isSecret(key) && decrypt && typeof value === 'string' ? await decrypt(key, value) : value;
  }
  return { settings: out, createdAt: row?.createdAt ?? null, updatedAt: row?.updatedAt ?? null };
}

/** What other domains read (the defaults they apply, the restricted levels); no secret is decrypted. */
export async function instanceSettings(ctx: Pick<RequestContext, 'db'>): Promise<InstanceSettings> {
  return (await values(ctx.db)).settings;
}

export async function getApplicationSettings({ ctx }: Verb<unknown>) {
  requireAdmin(ctx);
  const key = await requireEncryptionKey(ctx.config.encryptionKey).catch(() => null);
  return values(ctx.db, async (k, stored) => (key ? decryptSecret(key, stored, context(k)) : ''));
}

/** The errors ApplicationSetting's validations give (limits are not negative; the password length GitLab allows). */
function modelErrors(changes: Partial<InstanceSettings>) {
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value === 'number' && value < 0) (errors[key] ??= []).push('must be greater than or equal to 0');
  }
  const length = changes.minimum_password_length;
  if (typeof length === 'number' && (length < 8 || length > 128)) errors.minimum_password_length = ['must be between 8 and 128'];
  return errors;
}

export async function updateApplicationSettings({ ctx, input }: Verb<Output<typeof UpdateSettingsInput>>) {
  requireAdmin(ctx);
  const changes: Record<string, unknown> = {};
  for (const [alias, key] of Object.entries(ALIASES)) {
    const value = (input as Record<string, unknown>)[alias];
    if (value !== undefined && (input as Record<string, unknown>)[key] === undefined) changes[key] = value;
  }
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) changes[key] = value;
  }
  const errors = modelErrors(changes);
  if (Object.keys(errors).length) throw validationFailed(errors);
  const secrets = (Object.keys(changes) as SettingKey[]).filter((k) => isSecret(k) && changes[k] !== '' && changes[k] !== null);
  if (secrets.length) {
    const key = await requireEncryptionKey(ctx.config.encryptionKey);
    for (const k of secrets) changes[k] = await encryptSecret(key, String(changes[k]), context(k));
  }
  for (const k of Object.keys(changes) as SettingKey[]) if (isSecret(k) && changes[k] === '') changes[k] = null;
  await q.mergeApplicationSettings(ctx.db, changes);
  return getApplicationSettings({ ctx, input: undefined });
}

export async function applicationStatistics({ ctx }: Verb<unknown>) {
  requireAdmin(ctx);
  return q.instanceCounts(ctx.db);
}

/**
 * restricted_visibility_levels: a level the administrator restricted is for administrators alone (GitLab's
 * visibility_level_allowed_by_restrictions validation); the model error names it.
 */
export async function assertVisibilityAllowed(ctx: RequestContext, level: number, field = 'visibility_level') {
  if (isAdministrator(ctx.actor)) return;
  const restricted = (await instanceSettings(ctx)).restricted_visibility_levels as string[];
  if (restricted.includes(visibilityName(level))) {
    throw validationFailed({ [field]: [`${visibilityName(level)} has been restricted by your GitLab administrator`] });
  }
}

/** The visibility a new project, group or snippet takes when the request names none (default_*_visibility). */
export async function defaultVisibility(ctx: Pick<RequestContext, 'db'>, kind: 'project' | 'group' | 'snippet') {
  const name = (await instanceSettings(ctx))[`default_${kind}_visibility`] as keyof typeof Visibility;
  return Visibility[name];
}
