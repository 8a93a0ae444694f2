// The payload rules as pure functions (functions/alerts/payload.ts): GitLab's fingerprint texts (Ruby's to_s and
// inspect), hosts flattening and truncation, and `details` (Alert#details: the payload less the alert's attributes,
// nested keys joined with "." in Gitlab::Utils::InlineHash's order).
import { describe, expect, it } from 'vitest';
import { alertFieldsOf, detailsOf, fingerprintOf, jsonDepth } from '../../../functions/alerts/payload.ts';
import { sha1 } from './support.ts';

const now = new Date('2020-11-24T00:00:00Z');

describe('fingerprintOf', () => {
  it.each([
    ['a string', 'abc', 'abc'],
    ['a number', 42, '42'],
    ['a nested array, flattened and joined', ['a', [1, ['b']], null], 'a1b'],
    ['an object, as Ruby inspects it', { a: 1, b: 'x"y', c: null, d: [true] }, '{"a"=>1, "b"=>"x\\"y", "c"=>nil, "d"=>[true]}'],
  ])('hashes %s as GitLab does', async (_name, value, text) => {
    expect(await fingerprintOf(value)).toBe(await sha1(text));
  });

  it.each([[''], ['  '], [[]], [{}], [null], [false]])('is null for the blank value %j', async (value) => {
    expect(await fingerprintOf(value)).toBeNull();
  });
});

describe('alertFieldsOf', () => {
  it('flattens hosts and cuts them to 255 characters joined', async () => {
    const fields = await alertFieldsOf({ hosts: ['x'.repeat(250), ['y'.repeat(10)], 'z'] }, { now, fingerprintPayload: false });
    expect(fields.hosts).toEqual(['x'.repeat(250), 'y'.repeat(5)]);
  });

  it('uses a blank fingerprint as none; on Premium the payload less start_time, end_time and hosts', async () => {
    const o = { now, fingerprintPayload: true };
    const a = await alertFieldsOf({ fingerprint: ' ', title: 't', start_time: '2020-01-01', hosts: 'h' }, o);
    expect(a.fingerprint).toBe(await sha1('{"fingerprint"=>" ", "title"=>"t"}'));
    // Nothing but the excluded keys (or blank values): no fingerprint at all.
    expect((await alertFieldsOf({ start_time: '2020-01-01', hosts: 'h', title: '' }, o)).fingerprint).toBeNull();
  });

  it('reads times leniently: unparseable or non-text start_time is now, end_time absent', async () => {
    for (const start_time of ['nonsense', 12345, ['2020-01-01']]) {
      const fields = await alertFieldsOf({ start_time, end_time: 'never' }, { now, fingerprintPayload: false });
      expect([fields.startedAt, fields.endedAt]).toEqual([now, null]);
    }
  });
});

describe('detailsOf', () => {
  it("keeps what is not an alert attribute, nested keys flattened in merge_keys' order", () => {
    expect(
      detailsOf({ title: 't', hosts: ['h'], start_time: 's', gitlab_environment_name: 'prod', custom: { b: 1, a: { c: [1, 2] }, e: {} }, runbook: 'r' }),
    ).toEqual({ start_time: 's', gitlab_environment_name: 'prod', 'custom.a.c': [1, 2], 'custom.b': 1, runbook: 'r' });
    expect(Object.keys(detailsOf({ custom: { b: 1, a: 2 } }))).toEqual(['custom.a', 'custom.b']);
    expect(detailsOf(null)).toEqual({});
  });
});

describe('jsonDepth', () => {
  it('counts nesting without recursion', () => {
    expect([jsonDepth(1), jsonDepth({}), jsonDepth({ a: [1] }), jsonDepth(JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`))]).toEqual([0, 1, 2, 5000]);
  });
});
