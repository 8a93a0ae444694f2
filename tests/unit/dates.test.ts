import { describe, expect, it } from 'vitest';
import { isoDate, isRealDate } from '../../functions/lib/validate.ts';

describe('isRealDate / isoDate()', () => {
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
    expect(isoDate().safeParse(value).success).toBe(real);
  });
});
