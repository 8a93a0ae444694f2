// What issues and merge requests read alike from a REST request (lib/api/helpers: the issuable parameters Grape
// declares for both) and show alike (Entities::IssuableTimeStats, task completion).
import * as z from 'zod/mini';
import { id, int, schema, str, text } from '../lib/validate.ts';

/** Comma-separated titles (or an array of them), trimmed, empties dropped. */
export const labelList = () =>
  z.pipe(
    z.transform((v: unknown) => (Array.isArray(v) ? v.join(',') : typeof v === 'number' ? String(v) : v)),
    z.pipe(
      str(10_000),
      z.transform((s: string) => [
        ...new Set(
          s
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ]),
    ),
  );

/** `assignee_ids[]`: integers; an empty value (`assignee_ids=` or `[]`) clears. */
export const idList = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' || v === null ? [] : Array.isArray(v) ? v.filter((x) => x !== '') : typeof v === 'string' ? v.split(',') : [v])),
    z.array(id()),
  );

/** `assignee_id`/`milestone_id`: an id; 0 or empty clears (GitLab's "0 to unassign"). */
export const optionalRef = () =>
  z.pipe(
    z.transform((v: unknown): unknown => (v === '' || v === null ? 0 : v)),
    z.pipe(int(), z.int().check(z.minimum(0), z.maximum(2_147_483_647))),
  );

/**
 * Grape's `type: String` for an issuable's title and description: their presence and lengths are Issuable's
 * validations, which the verbs apply (issuables/validation.ts), so REST and GraphQL give the same words.
 */
const UNCHECKED_LENGTH = Number.MAX_SAFE_INTEGER;
export const title = () => str(UNCHECKED_LENGTH);
export const description = () => text(UNCHECKED_LENGTH);
export { DESCRIPTION_MAX } from './validation.ts';

/** A filter's `None` and `Any` (any case), lower-cased; any other value as given. */
export const noneAny = (v: string) => (v.toLowerCase() === 'none' ? 'none' : v.toLowerCase() === 'any' ? 'any' : v);

/** GitLab's ChronicDuration output as the time_stats entity shows it (`1h 30m`, `1w 2d`; 8h days, 5d weeks, 4w months). */
export function humanDuration(seconds: number): string | null {
  if (!seconds) return null;
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(seconds);
  const units: Array<[string, number]> = [
    ['mo', 4 * 5 * 8 * 3600],
    ['w', 5 * 8 * 3600],
    ['d', 8 * 3600],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  for (const [name, size] of units) {
    const n = Math.floor(s / size);
    if (n) parts.push(`${n}${name}`);
    s -= n * size;
  }
  return sign + parts.join(' ');
}

/** Markdown task list items (`- [ ]`, `* [x]`, `1. [ ]`), as GitLab's TaskList counts them. */
export function taskStatus(description: string | null) {
  const items = [...(description ?? '').matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX])\]/gm)];
  return { count: items.length, completed_count: items.filter((m) => m[1] !== ' ').length };
}

/** Entities::IssuableTimeStats */
export function toTimeStats(i: { timeEstimate: number; totalTimeSpent: number }) {
  return {
    time_estimate: i.timeEstimate,
    total_time_spent: i.totalTimeSpent,
    human_time_estimate: humanDuration(i.timeEstimate),
    human_total_time_spent: humanDuration(i.totalTimeSpent),
  };
}

/** `duration` of the time-tracking endpoints (required). */
export const DurationInput = schema(() => z.object({ duration: str(100) }));

/** The parameters a create or update of an issue or a merge request shares (each kind adds its own). */
export const issuableFields = () => ({
  description: z.optional(z.nullable(description())),
  assignee_id: z.optional(optionalRef()),
  assignee_ids: z.optional(idList()),
  milestone_id: z.optional(optionalRef()),
  labels: z.optional(labelList()),
});
