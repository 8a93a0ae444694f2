// ChronicDuration as GitLab's duration validator uses it (`start_in`, `timeout`, `expire_in`): "30 minutes",
// "1h 30m", "1 day 2 hours", "3600" (seconds). Returns seconds, or null for text it cannot read.
const UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3600],
  [/^(d|days?)$/, 86400],
  [/^(w|wks?|weeks?)$/, 604800],
  [/^(mos?|months?)$/, 2592000],
  [/^(y|yrs?|years?)$/, 31557600],
];

export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase().replace(/\band\b|,/g, ' ');
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  if (!parts.length || parts.map((p) => p[0]).join(' ').replace(/\s+/g, '') !== s.replace(/\s+/g, '')) return null;
  let total = 0;
  for (const [, n, unit] of parts) {
    const found = UNITS.find(([re]) => re.test(unit!));
    if (!found) return null;
    total += Number(n) * found[1];
  }
  return total;
}
