// functions/lib/rack-params.ts: Rack 2.2's normalize_params, case by case (pure).
import { describe, expect, it } from 'vitest';
import { MalformedParams, nestPairs } from '../../functions/lib/rack-params.ts';

const nest = (query: string) => JSON.parse(JSON.stringify(nestPairs(new URLSearchParams(query))));

describe('nestPairs', () => {
  it.each([
    ['a=1&b=2', { a: '1', b: '2' }],
    ['a=1&a=2', { a: '2' }],
    ['a[]=1&a[]=2', { a: ['1', '2'] }],
    ['a[k]=1&a[j][i]=2', { a: { k: '1', j: { i: '2' } } }],
    ['a[][k]=1&a[][j]=2&a[][k]=3', { a: [{ k: '1', j: '2' }, { k: '3' }] }],
    ['a[][k][x]=1&a[][k][y]=2&a[][k][x]=3', { a: [{ k: { x: '1', y: '2' } }, { k: { x: '3' } }] }],
    ['a[][]=1', { a: [['1']] }],
    ['a[=1', { 'a[': '1' }],
    ['[]=1&[k]=2', { k: '2' }],
    ['scope[0]=a&scope[1]=b', { scope: { 0: 'a', 1: 'b' } }],
    ['a[]=1&a=2', { a: '2' }],
  ])('%s', (query, expected) => {
    expect(nest(query)).toEqual(expected);
  });

  it.each(['a=1&a[]=2', 'a=1&a[k]=2', 'a[]=1&a[k]=2', 'a[k]=1&a[]=2', `a${'[b]'.repeat(100)}=1`])('%s is what Rack refuses', (query) => {
    expect(() => nestPairs(new URLSearchParams(query))).toThrow(MalformedParams);
  });

  it('keeps __proto__ a plain name', () => {
    const params = nestPairs(new URLSearchParams('__proto__[polluted]=1&a[__proto__][x]=2'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(params))).toEqual({ ['__proto__']: { polluted: '1' }, a: { ['__proto__']: { x: '2' } } });
  });
});
