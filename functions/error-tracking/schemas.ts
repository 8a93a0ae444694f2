// Error-tracking settings inputs and GitLab's Entities::ErrorTracking::ProjectSetting (with the spec's
// `tracker_external_url` in place of GitLab's `sentry_external_url`).
import type { ErrorTrackingSettingRow } from '../../db/schema/index.ts';
import * as z from 'zod/mini';
import { bool, schema, str, type Output } from '../lib/validate.ts';
import { trackerExternalUrl } from './api-url.ts';

const isBlank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Grape's `requires :x, type: Boolean, allow_blank: false`: absent -> "x is missing", blank (empty or spaces, JSON
 * null) -> "x is empty", anything that is not a boolean -> "x is invalid".
 */
const requiredBool = () =>
  z.pipe(
    z.custom<unknown>((v) => !isBlank(v), { message: 'is empty' }),
    bool(),
  );

/** `api_url`/`token` on PUT: a string; empty (or JSON null) clears the stored value. */
const clearable = (max: number) =>
  z.optional(
    z.pipe(
      z.transform((v: unknown) => (v === null || v === '' ? null : v)),
      z.nullable(str(max)),
    ),
  );

/** PATCH: `requires :active, type: Boolean, allow_blank: false`; `optional :integrated, type: Boolean`. */
export const PatchSettingInput = schema(() =>
  z.object({
    active: requiredBool(),
    integrated: z.optional(bool()),
  }),
);

/**
 * PUT (GitLab 15.10+): `requires :active` and `requires :integrated`, as GitLab's PUT declares them. GitLab's PUT
 * takes nothing else (the Sentry connection is made on the settings page); here `api_url` and `token` configure it
 * too. Each of them replaces the stored value when given (empty clears it) and keeps it when omitted, like the
 * settings page, which never shows the token and keeps it when the form sends it back masked. So a PUT of only
 * `active`/`integrated` (what @gitbeaker's ErrorTrackingSettings.create sends) switches flags without losing the
 * connection. The api_url's own length limit is GitLab's (255); the token's is generous (trackers' tokens vary).
 */
export const PutSettingInput = schema(() =>
  z.object({
    active: requiredBool(),
    integrated: requiredBool(),
    api_url: clearable(255),
    token: clearable(2000),
  }),
);

export type PatchSetting = Output<typeof PatchSettingInput>;
export type PutSetting = Output<typeof PutSettingInput>;

/** Entities::ErrorTracking::ProjectSetting: the spec's field order, then `integrated`. The token is never shown. */
export function toErrorTrackingSetting(row: ErrorTrackingSettingRow) {
  return {
    active: row.enabled,
    project_name: row.projectName ?? null,
    tracker_external_url: trackerExternalUrl(row.apiUrl),
    api_url: row.apiUrl ?? null,
    integrated: row.integrated,
  };
}
