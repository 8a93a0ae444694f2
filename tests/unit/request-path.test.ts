import { describe, expect, it } from 'vitest';
import { normalisePath, withNormalPath } from '../../functions/lib/request-path.ts';

describe('normalisePath: runs of `/` squeezed, no trailing `/`', () => {
  it.each([
    ['/', '/'],
    ['//', '/'],
    ['/api/v4/features/', '/api/v4/features'],
    ['/api/v4/features//flag', '/api/v4/features/flag'],
    ['//api///v4//projects//', '/api/v4/projects'],
    ['/api/v4/projects/group%2F%2Fproject', '/api/v4/projects/group%2F%2Fproject'],
  ])('%s -> %s', (path, normal) => expect(normalisePath(path)).toBe(normal));
});

describe('withNormalPath', () => {
  it('keeps a normal request as it is, and method, headers, body and query of one it rewrites', async () => {
    const normal = new Request('https://x.test/api/v4/projects?a=1');
    expect(withNormalPath(normal)).toBe(normal);
    const rewritten = withNormalPath(
      new Request('https://x.test/api//v4/features//f/?value=a//b', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }),
    );
    expect(rewritten.url).toBe('https://x.test/api/v4/features/f?value=a//b');
    expect(rewritten.method).toBe('POST');
    expect(rewritten.headers.get('content-type')).toBe('text/plain');
    expect(await rewritten.text()).toBe('hi');
  });
});
