import { describe, expect, it } from 'vitest';
import { isRealDate, parseDate } from '../../functions/lib/dates.ts';
import { dateParam } from '../../functions/lib/validate.ts';

describe('isRealDate', () => {
  it.each([
    ['2020-02-29', true],
    ['2021-02-29', false],
    ['2099-02-31', false],
    ['2024-04-31', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['0000-01-01', false],
    ['0001-01-01', true],
    ['0099-01-01', true],
    ['9999-12-31', true],
    ['2024-1-1', false],
    ['2024-01-01T00:00:00Z', false],
    ['', false],
  ])('%s -> %s', (value, real) => {
    expect(isRealDate(value)).toBe(real);
  });
});

// Every accepted value here gives the same day as Ruby's Date.parse (checked against ruby 3.1 when written); the
// refused ones are refused by Ruby too, or are the lenient readings lib/dates.ts refuses on purpose (see there).
describe("parseDate / dateParam(): Ruby's Date.parse, for dates written in full", () => {
  it.each([
    // ISO 8601, with a time and zone that are ignored (the date as written, not moved to UTC)
    ['2020-01-01', '2020-01-01'],
    ['  2020-01-01  ', '2020-01-01'],
    ['2020-01-01T00:00:00Z', '2020-01-01'],
    ['2020-01-01t10:00z', '2020-01-01'],
    ['2020-01-01T10:00:00.123456Z', '2020-01-01'],
    ['2019-12-31T23:00:00-05:00', '2019-12-31'],
    ['2020-01-01T00:00:00+14:00', '2020-01-01'],
    ['2020-01-01T10', '2020-01-01'],
    ['2020-01-01 10:00', '2020-01-01'],
    ['2020-01-01 10:00:00 +0100', '2020-01-01'],
    ['2020-01-01 00:00:00 UTC', '2020-01-01'],
    ['2020-01-01T00:00:00 PST', '2020-01-01'],
    ['2020-02-29T00:00:00Z', '2020-02-29'],
    // one-digit month and day, slashes and dots, year first
    ['2020-1-1', '2020-01-01'],
    ['2020/01/31', '2020-01-31'],
    ['2020/1/1 10:00', '2020-01-01'],
    ['2020.12.01', '2020-12-01'],
    // ISO 8601 basic
    ['20200101', '2020-01-01'],
    ['20200101T000000Z', '2020-01-01'],
    ['20200101T100000+0100', '2020-01-01'],
    // month names, day first or month first, with a weekday and a time (RFC 2822, HTTP dates, JavaScript's toString)
    ['1 Jan 2020', '2020-01-01'],
    ['01-Jan-2020', '2020-01-01'],
    ['1st January 2020', '2020-01-01'],
    ['3rd Feb 2001', '2001-02-03'],
    ['Wed, 01 Jan 2020 00:00:00 GMT', '2020-01-01'],
    ['31 Dec 2019 23:00:00 EST', '2019-12-31'],
    ['Jan 1 2020', '2020-01-01'],
    ['Jan. 1, 2020', '2020-01-01'],
    ['January 1st, 2020', '2020-01-01'],
    ['JANUARY 1 2020', '2020-01-01'],
    ['Sept 3 2020', '2020-09-03'],
    ['Wednesday, January 1, 2020', '2020-01-01'],
    ['Wed Jan 01 2020 00:00:00 GMT+0000', '2020-01-01'],
    ['Dec 31 2019 23:00 -0500', '2019-12-31'],
    // refused by Ruby too: not a date, or not a day of the calendar
    ['tomorrow', null],
    ['', null],
    ['2020-02-30', null],
    ['2021-02-29T00:00:00Z', null],
    ['2020-13-01', null],
    ['2020-01-32', null],
    ['2020-01', null],
    ['2020', null],
    ['12/31/2030', null],
    // refused here on purpose (Ruby guesses): text after the date, a missing year or day, a two-digit, signed or
    // out-of-range year, the day or month before a numeric year, ordinal and week dates
    ['2020-01-01junk', null],
    ['2020-01-01 junk', null],
    ['foo 2020-01-01', null],
    ['1/2', null],
    ['Jan 2020', null],
    ['20-01-01', null],
    ['+2020-01-01', null],
    ['0000-01-01', null],
    ['10000-01-01', null],
    ['-0001-01-01', null],
    ['05/08/2030', null],
    ['1-1-2020', null],
    ['2020-001', null],
    ['2020-W01-3', null],
    ['1 Janxyz 2020', null],
  ])('%j -> %j', (value, day) => {
    expect(parseDate(value)).toBe(day);
    const parsed = dateParam().safeParse(value);
    expect(parsed.success ? parsed.data : null).toBe(day);
  });

  it('numbers and other JSON values are not dates', () => {
    for (const value of [20200101, true, null, ['2020-01-01']]) expect(dateParam().safeParse(value).success).toBe(false);
  });
});
