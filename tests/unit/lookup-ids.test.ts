// Ids looked up (404 when unknown), id filters (400 when impossible) and date-times of the users list: nothing out
// of the database's range gets through as a value.
import { describe, expect, it } from 'vitest';
import { idArray } from '../../functions/groups/schemas.ts';
import { lookupId } from '../../functions/users/schemas.ts';
import * as z from 'zod/mini';
import { dateTime, toValidationError } from '../../functions/lib/validate.ts';
import { restError } from '../../functions/rest-errors.ts';

const errorOf = (schema: z.ZodMiniType, value: unknown) => {
  const result = z.object({ x: schema }).safeParse({ x: value });
  return result.success ? null : restError(toValidationError(result.error.issues)).body;
};

describe('lookupId (numbers GitLab looks up with find_by)', () => {
  it.each([
    ['42', 42],
    [42, 42],
    [' 7 ', 7],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['99999999999', null],
    [99999999999, null],
    ['9'.repeat(40), null],
    ['0', null],
    ['-5', null],
  ])('%j -> %j', (input, expected) => {
    expect(lookupId().parse(input)).toBe(expected);
  });

  it.each([['abc'], ['1.5'], [1.5], [true], [null], ['']])('%j is invalid', (input) => {
    expect(errorOf(lookupId(), input)).toEqual({ error: 'x is invalid' });
  });

  it('a missing one is missing', () => {
    expect(errorOf(lookupId(), undefined)).toEqual({ error: 'x is missing' });
  });
});

describe('idArray (id filters)', () => {
  it('keeps ids of the column range', () => {
    expect(idArray().parse(['1', 2147483647])).toEqual([1, 2147483647]);
    expect(idArray().parse('5')).toEqual([5]);
  });

  it.each([[['99999999999']], [['1', '0']], [[-1]]])('%j does not have a valid value', (input) => {
    expect(errorOf(idArray(), input)).toEqual({ error: 'x does not have a valid value' });
  });

  it('a non-integer item is invalid', () => {
    expect(errorOf(idArray(), ['1', 'x'])).toEqual({ error: 'x is invalid' });
  });
});

describe('dateTime (Grape DateTime, years 1..9999)', () => {
  it.each(['2020-05-01T10:00:00Z', '2020-05-01', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'])('%s is a date-time', (value) => {
    expect(dateTime().parse(value)).toEqual(new Date(value));
  });

  it.each(['-100000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '+010000-01-01T00:00:00Z', '0000-06-01T00:00:00Z', 'soon', ''])('%j is invalid', (value) => {
    expect(errorOf(dateTime(), value)).toEqual({ error: 'x is invalid' });
  });
});
