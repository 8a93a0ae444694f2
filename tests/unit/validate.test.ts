// lib/validate.ts: Grape's coercions and messages, as table tests (pure: no app, no database).
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { bool, id, int, intIn, dateParam, invalidMessageBody, modelRule, oneOf, str, text, toValidationError } from '../../functions/lib/validate.ts';
import { restError } from '../../functions/rest-errors.ts';

/** The 400 body a one-field schema gives for `value` (or the parsed value when valid). */
function check(field: z.ZodMiniType, value: unknown): { ok: unknown } | { body: unknown } {
  const result = z.object({ f: field }).safeParse(value === undefined ? {} : { f: value });
  return result.success ? { ok: (result.data as { f: unknown }).f } : { body: restError(toValidationError(result.error.issues)).body };
}
const ok = (value: unknown) => ({ ok: value });
const err = (error: string) => ({ body: { error: `f ${error}` } });
const model = (message: string) => ({ body: { message: { f: [message] } } });

describe('int()', () => {
  it.each([
    [5, ok(5)],
    ['5', ok(5)],
    [' 42 ', ok(42)],
    ['-3', ok(-3)],
    ['+7', ok(7)],
    [0, ok(0)],
    ['1.5', err('is invalid')],
    [1.5, err('is invalid')],
    ['abc', err('is invalid')],
    ['', err('is invalid')],
    [true, err('is invalid')],
    [[1], err('is invalid')],
    [undefined, err('is missing')],
  ])('%j -> %j', (input, expected) => expect(check(int(), input)).toEqual(expected));
});

describe('id()', () => {
  it.each([
    ['1', ok(1)],
    [2147483647, ok(2147483647)],
    [0, err('does not have a valid value')],
    ['-1', err('does not have a valid value')],
    ['2147483648', err('does not have a valid value')],
    ['x1', err('is invalid')],
  ])('%j -> %j', (input, expected) => expect(check(id(), input)).toEqual(expected));
});

describe('bool()', () => {
  it.each<[unknown, unknown]>([
    [true, ok(true)],
    [false, ok(false)],
    ...['true', 'TRUE', 't', '1', 'yes', 'y', 'on', ' True '].map((s): [unknown, unknown] => [s, ok(true)]),
    ...['false', 'f', '0', 'no', 'n', 'off', 'FALSE'].map((s): [unknown, unknown] => [s, ok(false)]),
    [1, ok(true)],
    [0, ok(false)],
    [2, err('is invalid')],
    ['maybe', err('is invalid')],
    ['', err('is invalid')],
    [null, err('is invalid')],
  ])('%j -> %j', (input, expected) => expect(check(bool(), input)).toEqual(expected));
});

describe('str()', () => {
  it.each([
    ['hello', ok('hello')],
    ['', ok('')],
    ['ünïcødé ✓', ok('ünïcødé ✓')],
    [12, ok('12')],
    ['a'.repeat(255), ok('a'.repeat(255))],
    ['a'.repeat(256), model('is too long (maximum is 255 characters)')],
    ['tab\there', err('is invalid')],
    ['new\nline', err('is invalid')],
    ['nul\u0000byte', err('is invalid')],
    ['del\u007f', err('is invalid')],
    ['c1\u0085', err('is invalid')],
    [{}, err('is invalid')],
    [['a'], err('is invalid')],
    [undefined, err('is missing')],
  ])('%j -> %j', (input, expected) => expect(check(str(), input)).toEqual(expected));

  it('takes its maximum as an argument', () => {
    expect(check(str(3), 'abcd')).toEqual(model('is too long (maximum is 3 characters)'));
  });
});

describe('text()', () => {
  it.each([
    ['line one\nline two\r\n\ttabbed', ok('line one\nline two\r\n\ttabbed')],
    ['bell\u0007', err('is invalid')],
    ['nul\u0000', err('is invalid')],
    ['x'.repeat(2001), model('is too long (maximum is 2000 characters)')],
  ])('%j -> %j', (input, expected) => expect(check(text(), input)).toEqual(expected));
});

describe('oneOf(), intIn(), dateParam(), modelRule()', () => {
  it.each([
    [oneOf(['asc', 'desc']), 'asc', ok('asc')],
    [oneOf(['asc', 'desc']), 'ASC', err('does not have a valid value')],
    // Grape says "f is missing, f does not have a valid value" for a required list parameter.
    [oneOf(['asc', 'desc']), undefined, err('is missing, f does not have a valid value')],
    [intIn([10, 20, 30] as const), '20', ok(20)],
    [intIn([10, 20, 30] as const), 25, err('does not have a valid value')],
    [intIn([10, 20, 30] as const), 'x', err('is invalid')],
    [dateParam(), '2020-02-29', ok('2020-02-29')],
    [dateParam(), '2020-13-01', err('is invalid')],
    [dateParam(), '2020-1-1', ok('2020-01-01')],
    [z.string().check(modelRule((s: string) => s.length > 2, 'is too short')), 'ab', model('is too short')],
  ])('%#', (schema, input, expected) => expect(check(schema as z.ZodMiniType, input)).toEqual(expected));
});

describe('toValidationError()', () => {
  const schema = z.object({ name: str(5), path: str(), visibility: oneOf(['private', 'public']), events: z.object({ new_note: bool() }) });

  it('joins Grape errors with ", " in field order and names nested fields with brackets', () => {
    const r = schema.safeParse({ path: 'a\u0000', visibility: 'secret', events: { new_note: 'x' } });
    expect(restError(toValidationError(r.error!.issues)).body).toEqual({
      error: 'name is missing, path is invalid, visibility does not have a valid value, events[new_note] is invalid',
    });
  });

  it('Grape errors win over model errors; model errors alone give {"message":{...}}', () => {
    expect(
      restError(toValidationError(schema.safeParse({ name: 'toolong', path: 'p', visibility: 'x', events: { new_note: true } }).error!.issues)).body,
    ).toEqual({
      error: 'visibility does not have a valid value',
    });
    expect(
      restError(toValidationError(schema.safeParse({ name: 'toolong', path: 'p', visibility: 'public', events: { new_note: true } }).error!.issues)).body,
    ).toEqual({
      message: { name: ['is too long (maximum is 5 characters)'] },
    });
  });

  it('answers 400 in both cases', () => {
    expect(restError(toValidationError(schema.safeParse({}).error!.issues)).status).toBe(400);
  });
});

describe('invalidMessageBody()', () => {
  it("is Grape's composed InvalidMessageBody message", () => {
    const error = restError(invalidMessageBody('application/json'));
    expect(error.status).toBe(400);
    expect(error.body).toEqual({
      error:
        "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json in the request's 'body' ",
    });
  });
});
