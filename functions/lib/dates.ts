// Calendar dates as GitLab reads them. Grape's `Date` parameters go through Ruby's `Date.parse`, and the `String`
// dates GitLab writes to date columns (issue and milestone dates) through ActiveRecord's cast (`Date._parse`): both
// take the calendar date a string names and ignore the time and zone that follow, so `2020-01-01T23:30:00-05:00`
// is 2020-01-01, as written (not moved to UTC).
//
// Ruby's parser guesses more than a client can mean: it skips or misreads text it does not expect (`2020-01-01junk`
// is June 1st of this year: it finds `jun`), fills in a missing year or day (`1/2` is January 2nd of this year, `Jan
// 2020` the 1st), completes two-digit years and reads `05/08/2030` as 5 August. Those stay 400 here: a date is taken when its year (four digits, 1..9999, the
// range Postgres and JavaScript dates share), month and day are all written in one of the forms below, year first
// when the month is a number, and the day exists.

/** Whether `YYYY-MM-DD` names a real calendar day in years 1..9999 (no rolling 02-31 over into March). */
export function isRealDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WEEKDAY = '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,?\\s+)?';
const ORDINAL = '(?:st|nd|rd|th)?';
// The time and zone Ruby ignores, in the shapes clients send: `10:00`, `10:00:00.123`, then `Z`, `UTC`, `EST`,
// `+01:00`, `-0500`, `GMT+0000`.
const ZONE = '(?:\\s*[a-z]{1,5})?(?:\\s*[+-]\\d{1,2}(?::?\\d{2})?)?';
const TIME = `\\d{1,2}(?::\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?)?${ZONE}`;

const FORMS: ReadonlyArray<{ pattern: RegExp; ymd: (m: RegExpExecArray) => [string, string, string] }> = [
  // ISO 8601 and its relatives: 2020-01-01, 2020-1-1, 2020/01/01, 2020.01.01, then `T10:00:00Z` or ` 10:00 +0100`.
  { pattern: new RegExp(`^(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})(?:(?:t|\\s+|,)${TIME})?$`, 'i'), ymd: (m) => [m[1]!, m[3]!, m[4]!] },
  // ISO 8601 basic: 20200101, 20200101T100000Z.
  { pattern: /^(\d{4})(\d{2})(\d{2})(?:t\d{2}(?:\d{2}(?:\d{2}(?:[.,]\d+)?)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/i, ymd: (m) => [m[1]!, m[2]!, m[3]!] },
  // Day first: 1 Jan 2020, 01-Jan-2020, 1st January 2020, Wed, 01 Jan 2020 00:00:00 GMT (RFC 2822 / HTTP dates).
  { pattern: new RegExp(`^${WEEKDAY}(\\d{1,2})${ORDINAL}[\\s-]+${MONTH}[\\s,-]+(\\d{4})(?:\\s+${TIME})?$`, 'i'), ymd: (m) => [m[3]!, m[2]!, m[1]!] },
  // Month first: Jan 1 2020, January 1st, 2020, Wed Jan 01 2020 00:00:00 GMT+0000.
  { pattern: new RegExp(`^${WEEKDAY}${MONTH}\\s+(\\d{1,2})${ORDINAL},?\\s+(\\d{4})(?:\\s+${TIME})?$`, 'i'), ymd: (m) => [m[3]!, m[1]!, m[2]!] },
];

const monthNumber = (month: string) => (/^\d+$/.test(month) ? month : String(MONTH_NAMES.indexOf(month.slice(0, 3).toLowerCase()) + 1));

/** The `YYYY-MM-DD` a date parameter names (see above), or null when it names none. */
export function parseDate(value: string): string | null {
  const s = value.trim();
  for (const { pattern, ymd } of FORMS) {
    const m = pattern.exec(s);
    if (!m) continue;
    const [y, mo, d] = ymd(m);
    const day = `${y}-${monthNumber(mo).padStart(2, '0')}-${d.padStart(2, '0')}`;
    return isRealDate(day) ? day : null;
  }
  return null;
}
