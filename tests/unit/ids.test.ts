// lib/ids.ts: numeric ids or URL-encoded paths in resource references.
import { describe, expect, it } from 'vitest';
import { groupRef, parseRef, projectRef, userRef } from '../../functions/lib/ids.ts';

describe('projectRef (id, or a path with a slash)', () => {
  it.each([
    ['42', { id: 42 }],
    ['2147483647', { id: 2147483647 }],
    ['0', null],
    ['2147483648', null],
    ['007', { id: 7 }],
    ['gitlab-org/gitlab', { path: 'gitlab-org/gitlab' }],
    ['a/b/c', { path: 'a/b/c' }],
    ['no-slash', null],
    ['-1', null],
    ['bad/\u0000path', null],
    [`a/${'x'.repeat(1000)}`, null],
  ])('%j -> %j', (input, expected) => expect(projectRef().parse(input)).toEqual(expected));
});

describe('groupRef and userRef (id, or any path)', () => {
  it.each([
    ['5', { id: 5 }],
    ['my-group', { path: 'my-group' }],
    ['parent/child', { path: 'parent/child' }],
    ['0', null],
    ['tab\tname', null],
  ])('%j -> %j', (input, expected) => {
    expect(groupRef().parse(input)).toEqual(expected);
    expect(userRef().parse(input)).toEqual(expected);
    expect(parseRef(input)).toEqual(expected);
  });
});
