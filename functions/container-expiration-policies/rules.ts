// ContainerExpirationPolicy (GitLab 13.6, Core): the values it takes (the GraphQL enums are names for them), its
// validations in Rails' words, the defaults a project has before its policy is first changed, and next_run_at
// (Schedulable: now + the cadence, recomputed on every save; ChronicDuration counts a month as 30 days).
import type { ContainerExpirationPolicyRow } from '../../db/schema/index.ts';
import type { FieldErrors } from '../lib/errors.ts';
import { re2Error } from '../lib/untrusted-regexp.ts';

export const CADENCES = { EVERY_DAY: '1d', EVERY_WEEK: '7d', EVERY_TWO_WEEKS: '14d', EVERY_MONTH: '1month', EVERY_THREE_MONTHS: '3month' } as const;
export const KEEP_N = { ONE_TAG: 1, FIVE_TAGS: 5, TEN_TAGS: 10, TWENTY_FIVE_TAGS: 25, FIFTY_TAGS: 50, ONE_HUNDRED_TAGS: 100 } as const;
export const OLDER_THAN = { SEVEN_DAYS: '7d', FOURTEEN_DAYS: '14d', THIRTY_DAYS: '30d', NINETY_DAYS: '90d' } as const;

const DAYS: Record<string, number> = { '1d': 1, '7d': 7, '14d': 14, '1month': 30, '3month': 90 };

/** The policy's values (what a row holds, without its keys and times). */
export interface PolicyValues {
  enabled: boolean;
  cadence: string;
  olderThan: string | null;
  keepN: number | null;
  nameRegex: string | null;
  nameRegexKeep: string | null;
}

/** The database defaults GitLab creates every project's policy with. */
export const DEFAULT_POLICY: PolicyValues = { enabled: true, cadence: '1d', olderThan: '90d', keepN: 10, nameRegex: null, nameRegexKeep: null };

/** A project's policy as shown (REST entity, GraphQL type). */
export type EffectivePolicy = PolicyValues & { nextRunAt: Date | null; createdAt: Date; updatedAt: Date };

/** A project's policy as shown: its row, or the defaults as created with the project (next run a cadence later). */
export function effectivePolicy(row: ContainerExpirationPolicyRow | null, project: { createdAt: Date }): EffectivePolicy {
  if (row) return row;
  return { ...DEFAULT_POLICY, nextRunAt: nextRunAt(DEFAULT_POLICY.cadence, project.createdAt), createdAt: project.createdAt, updatedAt: project.createdAt };
}

export const nextRunAt = (cadence: string, from: Date) => new Date(from.getTime() + (DAYS[cadence] ?? 1) * 86_400_000);

const included = (values: readonly unknown[], v: unknown) => values.includes(v);

/** ContainerExpirationPolicy's validations: inclusion, and RE2 patterns (checked only while enabled). */
export function policyErrors(p: PolicyValues): FieldErrors {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!p.cadence) add('cadence', "can't be blank");
  if (!included(Object.values(CADENCES), p.cadence)) add('cadence', 'is not included in the list');
  if (p.olderThan !== null && !included(Object.values(OLDER_THAN), p.olderThan)) add('older_than', 'is not included in the list');
  if (p.keepN !== null && !included(Object.values(KEEP_N), p.keepN)) add('keep_n', 'is not included in the list');
  if (p.enabled) {
    for (const [field, pattern] of [
      ['name_regex', p.nameRegex],
      ['name_regex_keep', p.nameRegexKeep],
    ] as const) {
      const error = pattern ? re2Error(pattern) : null;
      if (error) add(field, `not valid RE2 syntax: ${error}`);
    }
  }
  for (const [field, pattern] of [
    ['name_regex', p.nameRegex],
    ['name_regex_keep', p.nameRegexKeep],
  ] as const) {
    if (pattern && pattern.length > 255) add(field, 'is too long (maximum is 255 characters)');
  }
  return errors;
}
