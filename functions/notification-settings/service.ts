// Notification-setting verbs (GitLab's lib/api/notification_settings.rb over NotificationSetting and
// Users::UpdateService). The global setting belongs to the signed-in user; a group or project setting needs a source
// the user can read (404 otherwise). Nothing is stored until a value is changed.
import * as q from '../../db/queries/notification-settings.ts';
import type { NotificationLevel } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidMessage, validationFailed } from '../lib/errors.ts';
import { readableSource, type SourceInput } from '../sources/service.ts';
import { defaultSetting, emailEvents, isLevel, type SettingInput } from './schemas.ts';

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
  if (!isLevel(level)) throw invalidMessage(`'${level}' is not a valid level`);
  return level;
}

/** The level and the given events this setting has (a validated event it does not have, e.g. new_epic on free, is dropped). */
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

/**
 * The source the user may read (404 `Project Not Found` / `Group Not Found` otherwise) with the user's setting. One
 * statement loads both (a GET costs one query after authentication), so only the source module's read rule is used.
 */
async function loadSource(ctx: RequestContext, { kind, ref }: SourceInput) {
  const user = requireUser(ctx);
  const find = kind === 'project' ? q.findProjectWithSetting : q.findGroupWithSetting;
  const row = readableSource(ctx, kind, ref ? await find(ctx.db, ctx.actor, user.id, ref) : undefined);
  return { userId: user.id, target: kind === 'project' ? { projectId: row.id } : { namespaceId: row.id }, setting: row.setting };
}

export async function getSourceSetting({ ctx, input }: Verb<SourceInput>) {
  const source = await loadSource(ctx, input);
  return { setting: source.setting ?? defaultSetting(SOURCE_DEFAULT), events: emailEvents('source', ctx.config.instanceTier) };
}

/** Level and events in one upsert. A group or project level of `global` means "inherit". */
export async function updateSourceSetting({ ctx, input }: Verb<SourceInput & { params: SettingInput }>) {
  const source = await loadSource(ctx, input);
  const events = emailEvents('source', ctx.config.instanceTier);
  const write = settingWrite(input.params, events);
  if (Object.keys(write).length === 0) return { setting: source.setting ?? defaultSetting(SOURCE_DEFAULT), events };
  const setting = await q.upsertSourceSetting(ctx.db, source.userId, source.target, write);
  return { setting, events };
}
