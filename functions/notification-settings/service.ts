// Notification-setting verbs (GitLab's lib/api/notification_settings.rb over NotificationSetting and
// Users::UpdateService). The global setting belongs to the signed-in user; a group or project setting needs a source
// the user can read (404 otherwise). Nothing is stored until a value is changed.
import * as q from '../../db/queries/notification-settings.ts';
import type { NotificationLevel } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { ApiError, notFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { defaultSetting, emailEvents, isLevel, type SettingInput } from './schemas.ts';

export type SourceKind = 'project' | 'group';
type Verb<I> = { ctx: RequestContext; input: I };

const GLOBAL_DEFAULT: NotificationLevel = 'participating';
const SOURCE_DEFAULT: NotificationLevel = 'global';

/**
 * The level as the model's enum takes it: blank fails its presence validation, anything else unknown is Rails'
 * ArgumentError, which GitLab renders as a 400 message.
 */
function checkLevel(level: string | null | undefined): NotificationLevel | undefined {
  if (level === undefined) return undefined;
  if (level === null || level.trim() === '') throw validationFailed({ level: ["can't be blank"] });
  if (!isLevel(level)) throw new ApiError(400, { message: `'${level}' is not a valid level` });
  return level;
}

/** The level and the events of this setting kind that were given (unknown keys never reach here). */
function settingWrite(input: SettingInput, events: readonly string[]): q.SettingWrite {
  const write: Record<string, unknown> = {};
  const level = checkLevel(input.level);
  if (level !== undefined) write.level = level;
  for (const e of events) if (input[e as keyof SettingInput] !== undefined) write[e] = input[e as keyof SettingInput];
  return write as q.SettingWrite;
}

// ---- Global ----

const MODEL_EMAIL_ERROR = { notification_email: ['must be an email you have verified'] };
const CONTROL = /[\u0000-\u001f\u007f]/;

export async function getGlobalSetting({ ctx }: Verb<object>) {
  const user = requireUser(ctx);
  const setting = (await q.findGlobalSetting(ctx.db, user.id)) ?? defaultSetting(GLOBAL_DEFAULT);
  return { setting, events: emailEvents('global', ctx.config.instanceTier), notificationEmail: user.notificationEmail || user.email };
}

/**
 * Level, events and notification email in one statement: an address that is not one of the user's verified emails
 * is a 400 model error and leaves everything as it was (the level given with it too). An empty address clears it.
 */
export async function updateGlobalSetting({ ctx, input }: Verb<SettingInput>) {
  const user = requireUser(ctx);
  const events = emailEvents('global', ctx.config.instanceTier);
  const write = settingWrite(input, events);
  let email: string | null | undefined;
  if (typeof input.notification_email === 'string') {
    email = input.notification_email.trim() === '' ? null : input.notification_email;
    // No stored address holds control characters (and NUL cannot be a bound text parameter).
    if (email !== null && CONTROL.test(email)) throw validationFailed(MODEL_EMAIL_ERROR);
  }
  const result = await q.writeGlobalSetting(ctx.db, user.id, write, email);
  if (!result.ok) throw validationFailed(MODEL_EMAIL_ERROR);
  const stored = result.notificationEmail !== undefined ? result.notificationEmail : user.notificationEmail;
  return { setting: result.setting ?? defaultSetting(GLOBAL_DEFAULT), events, notificationEmail: stored || user.email };
}

// ---- Groups and projects ----

/** The source the user may read (404 `Project Not Found` / `Group Not Found` otherwise) with the user's setting. */
async function loadSource(ctx: RequestContext, kind: SourceKind, ref: Ref | null) {
  const user = requireUser(ctx);
  if (kind === 'project') {
    const row = ref ? await q.findProjectWithSetting(ctx.db, ctx.actor, user.id, ref) : undefined;
    if (!row) throw notFound('Project');
    assertCan(ctx.actor, 'project:read', { kind: 'project', visibilityLevel: row.visibilityLevel, accessLevel: row.accessLevel, archived: row.archived });
    return { userId: user.id, target: { projectId: row.id }, setting: row.setting };
  }
  const row = ref ? await q.findGroupWithSetting(ctx.db, ctx.actor, user.id, ref) : undefined;
  if (!row) throw notFound('Group');
  assertCan(ctx.actor, 'group:read', { kind: 'group', visibilityLevel: row.visibilityLevel, accessLevel: row.accessLevel, hasDescendantAccess: row.hasDescendantAccess });
  return { userId: user.id, target: { namespaceId: row.id }, setting: row.setting };
}

export async function getSourceSetting({ ctx, input }: Verb<{ kind: SourceKind; ref: Ref | null }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  return { setting: source.setting ?? defaultSetting(SOURCE_DEFAULT), events: emailEvents('source', ctx.config.instanceTier) };
}

/** Level and events in one upsert. A group or project level of `global` means "inherit". */
export async function updateSourceSetting({ ctx, input }: Verb<{ kind: SourceKind; ref: Ref | null; params: SettingInput }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  const events = emailEvents('source', ctx.config.instanceTier);
  const write = settingWrite(input.params, events);
  if (Object.keys(write).length === 0) return { setting: source.setting ?? defaultSetting(SOURCE_DEFAULT), events };
  const setting = await q.upsertSourceSetting(ctx.db, source.userId, source.target, write);
  return { setting, events };
}
