// Notification-setting inputs (GitLab's lib/api/notification_settings.rb params) and entities
// (Entities::NotificationSetting, Entities::GlobalNotificationSetting).
import { EMAIL_EVENTS, NOTIFICATION_LEVELS, type EmailEvent, type NotificationLevel } from '../../db/schema/index.ts';
import type { SettingValues } from '../../db/queries/notification-settings.ts';
import type { Config } from '../lib/context.ts';
import * as z from 'zod/mini';
import { bool, scalarStr } from '../lib/validate.ts';

export type SettingKind = 'global' | 'source';
type Tier = Config['instanceTier'];

/**
 * The email events a setting has: every spec event, and `new_epic` only on group/project settings of a premium or
 * ultimate instance (an EE-only event: in CE the parameter does not exist, so Grape ignores it).
 */
export function emailEvents(kind: SettingKind, tier: Tier): readonly EmailEvent[] {
  return kind === 'source' && tier !== 'free' ? EMAIL_EVENTS : EMAIL_EVENTS.filter((e) => e !== 'new_epic');
}

/**
 * PUT parameters, in Grape's declaration order (level, notification_email, then the events). `level` is a plain
 * string here: GitLab checks it in the model (the enum), after the source is found. JSON null leaves a value as Grape
 * passes it on (a null level fails the model's presence check; a null event is stored as unset). Every email event is
 * declared, as the contract takes one Boolean per event on each setting, so each is validated alike; the service
 * writes only the events the setting has on this instance's tier (a valid `new_epic` elsewhere is ignored).
 */
function settingInput(kind: SettingKind) {
  const events = Object.fromEntries(EMAIL_EVENTS.map((e) => [e, z.optional(z.nullable(bool()))])) as {
    [K in EmailEvent]: z.ZodMiniOptional<z.ZodMiniNullable<ReturnType<typeof bool>>>;
  };
  return z.object({
    level: z.optional(z.nullable(scalarStr(255))),
    ...(kind === 'global' ? { notification_email: z.optional(z.nullable(scalarStr(255))) } : {}),
    ...events,
  });
}

export type SettingInput = {
  level?: string | null | undefined;
  notification_email?: string | null | undefined;
} & { [K in EmailEvent]?: boolean | null | undefined };

const SCHEMAS = new Map<SettingKind, ReturnType<typeof settingInput>>();

/** The PUT schema for a kind of setting (built on first use). */
export function settingInputSchema(kind: SettingKind) {
  let schema = SCHEMAS.get(kind);
  if (!schema) SCHEMAS.set(kind, (schema = settingInput(kind)));
  return schema;
}

export const isLevel = (v: string): v is NotificationLevel => (NOTIFICATION_LEVELS as readonly string[]).includes(v);

/**
 * The model reads `failed_pipeline` and `fixed_pipeline` as true when never set (those notifications are more like
 * mentions); every other unset event is false.
 */
const DEFAULT_ON = new Set<EmailEvent>(['failed_pipeline', 'fixed_pipeline']);

/** NotificationSetting#event_enabled?: the stored flag, or the event's default when never set. */
export const eventEnabled = (event: EmailEvent, value: boolean | null | undefined) => value ?? DEFAULT_ON.has(event);

function eventsOf(setting: SettingValues, events: readonly EmailEvent[]) {
  return Object.fromEntries(events.map((e) => [e, eventEnabled(e, setting[e])]));
}

/** Entities::NotificationSetting: `level`, plus `events` when the level is custom. */
export function toNotificationSetting(setting: SettingValues, events: readonly EmailEvent[]) {
  return setting.level === 'custom' ? { level: setting.level, events: eventsOf(setting, events) } : { level: setting.level };
}

/** Entities::GlobalNotificationSetting: the setting and where notifications go (`notification_email_or_default`). */
export function toGlobalNotificationSetting(setting: SettingValues, events: readonly EmailEvent[], notificationEmail: string) {
  return { ...toNotificationSetting(setting, events), notification_email: notificationEmail };
}

/** A setting nobody stored: no events set, at the default level. */
export const defaultSetting = (level: NotificationLevel): SettingValues =>
  ({ level, ...Object.fromEntries(EMAIL_EVENTS.map((e) => [e, null])) }) as SettingValues;
