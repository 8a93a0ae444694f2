// ChronicDuration, as GitLab reads durations people write: "3h30m", "1w 2d", "1 hour and 30 minutes", "1.5 days".
// One grammar, two scales: CI's (`start_in`, `timeout`, `expire_in`: calendar days, a bare number is seconds) and
// time tracking's (TimeTrackingFormatter: 8-hour days, 5-day weeks, 4-week months, a bare number is hours, a
// leading `-` subtracts). Hand-written: the grammar is tiny and a duration library would not share GitLab's scales.
// Seconds, or null for text that is not a duration.

export interface DurationScale {
  /** Seconds in a day, a week, a month and a year. */
  day: number;
  week: number;
  month: number;
  year: number;
  /** What a number without a unit counts. */
  bare: number;
  /** Whether a leading `-` makes the duration negative (time tracking subtracts it). */
  negative: boolean;
}

export const CALENDAR: DurationScale = { day: 86_400, week: 604_800, month: 2_592_000, year: 31_557_600, bare: 1, negative: false };
export const WORKING_TIME: DurationScale = {
  day: 8 * 3600,
  week: 5 * 8 * 3600,
  month: 4 * 5 * 8 * 3600,
  year: 12 * 4 * 5 * 8 * 3600,
  bare: 3600,
  negative: true,
};

const unitSeconds = (unit: string, scale: DurationScale): number | undefined => {
  if (/^(s|secs?|seconds?)$/.test(unit)) return 1;
  if (/^(m|mins?|minutes?)$/.test(unit)) return 60;
  if (/^(h|hrs?|hours?)$/.test(unit)) return 3600;
  if (/^(d|days?)$/.test(unit)) return scale.day;
  if (/^(w|wks?|weeks?)$/.test(unit)) return scale.week;
  if (/^(mos?|months?)$/.test(unit)) return scale.month;
  if (/^(y|yrs?|years?)$/.test(unit)) return scale.year;
  return undefined;
};

/** The longest text read: past it, nothing a person writes is a duration. */
const MAX_LENGTH = 100;

export function parseChronicDuration(input: string, scale: DurationScale): number | null {
  let s = input.trim().toLowerCase();
  if (!s || s.length > MAX_LENGTH) return null;
  const negative = scale.negative && s.startsWith('-');
  if (negative) s = s.slice(1).trim();
  const token = /(\d+(?:\.\d+)?)\s*([a-z]*)\s*,?\s*(?:and\s+)?/y;
  let total = 0;
  while (token.lastIndex < s.length) {
    const start = token.lastIndex;
    const m = token.exec(s);
    if (!m || token.lastIndex === start) return null;
    const unit = m[2] ? unitSeconds(m[2], scale) : scale.bare;
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
  }
  if (token.lastIndex === 0) return null;
  return negative ? -total : total;
}
