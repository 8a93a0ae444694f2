// GitLab's TimeTrackingFormatter.parse (ChronicDuration with 8-hour days, 5-day weeks and 4-week months): "3h30m",
// "1w 2d", "1 hour 30 minutes", "-1h" (subtracting), and a bare number as hours. Null when it is not a duration.
// Hand-written: the grammar is tiny and a general duration library would not share GitLab's day/week lengths.
const HOUR = 3600;
const UNITS: Array<[RegExp, number]> = [
  [/^(mo|mos|month|months)$/, 4 * 5 * 8 * HOUR],
  [/^(w|wk|wks|week|weeks)$/, 5 * 8 * HOUR],
  [/^(d|day|days)$/, 8 * HOUR],
  [/^(h|hr|hrs|hour|hours)$/, HOUR],
  [/^(m|min|mins|minute|minutes)$/, 60],
  [/^(s|sec|secs|second|seconds)$/, 1],
];

export function parseDuration(input: string): number | null {
  let s = input.trim().toLowerCase();
  if (!s || s.length > 100) return null;
  const negative = s.startsWith('-');
  if (negative) s = s.slice(1).trim();
  const token = /(\d+(?:\.\d+)?)\s*([a-z]*)\s*,?\s*(?:and\s+)?/y;
  let total = 0;
  let matched = 0;
  while (token.lastIndex < s.length) {
    const start = token.lastIndex;
    const m = token.exec(s);
    if (!m || token.lastIndex === start) return null;
    const unit = m[2] ? UNITS.find(([re]) => re.test(m[2]!))?.[1] : HOUR;
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    matched++;
  }
  if (!matched) return null;
  const seconds = Math.round(total);
  if (seconds > 2_147_483_647) return null;
  return negative ? -seconds : seconds;
}
