// PUT /application/settings' parameters (the catalog's, and 13.6's deprecated names) and Entities::ApplicationSetting
// and ApplicationStatistics.
import * as z from 'zod/mini';
import { iso } from '../lib/format.ts';
import { bool, schema } from '../lib/validate.ts';
import { SETTINGS, type SettingKey } from './catalog.ts';
import type { InstanceSettings } from './service.ts';

export const UpdateSettingsInput = schema(() => {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) shape[key] = z.optional(z.nullable(SETTINGS[key].input()));
  shape.allow_local_requests_from_hooks_and_services = z.optional(bool());
  shape.password_authentication_enabled = z.optional(bool());
  return z.object(shape);
});

/** Entities::ApplicationSetting: every setting by its name, secrets decrypted (the endpoint is administrators'). */
export function toApplicationSettings(v: { settings: InstanceSettings; createdAt: Date | null; updatedAt: Date | null }) {
  return {
    id: 1,
    ...v.settings,
    // 13.6 still shows the deprecated name beside the new one.
    password_authentication_enabled: v.settings.password_authentication_enabled_for_web,
    created_at: v.createdAt ? iso(v.createdAt) : null,
    updated_at: v.updatedAt ? iso(v.updatedAt) : null,
  };
}

/** Entities::ApplicationStatistics: each count with thousands delimiters, as a string (number_with_delimiter). */
export function toApplicationStatistics(counts: Record<string, number>) {
  return Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, n.toLocaleString('en-US')]));
}
