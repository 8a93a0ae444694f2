// Offset pagination headers on /users, exactly (a search that only matches this test's users keeps totals exact
// even when other tests share the database).
import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';

async function fiveUsers() {
  const tag = unique('page');
  const created = [];
  for (let i = 0; i < 5; i++) created.push((await createUser({ username: `${tag}${i}` })).user);
  const { token } = await createAdmin();
  // Administrators list by id descending by default.
  return { tag, token, ids: created.map((u) => u.id).reverse() };
}

const headers = (res: { headers: Headers }) =>
  Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, res.headers.get(h)]));
const url = (query: string) => `${TEST_PUBLIC_URL}/api/v4/users?${query}`;

describe('offset pagination (/users, per_page=2)', () => {
  it('first, middle and last pages: X-* headers and Link keep the other parameters', async () => {
    const { tag, token, ids } = await fiveUsers();
    const base = `search=${tag}&order_by=id&per_page=2`;

    const first = await api.get('/users', { token, query: { search: tag, order_by: 'id', per_page: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 2));
    expect(headers(first)).toEqual({ 'x-page': '1', 'x-per-page': '2', 'x-next-page': '2', 'x-prev-page': '', 'x-total': '5', 'x-total-pages': '3' });
    expect(first.headers.get('link')).toBe(
      [`<${url(`${base}&page=2`)}>; rel="next"`, `<${url(`${base}&page=1`)}>; rel="first"`, `<${url(`${base}&page=3`)}>; rel="last"`].join(', '),
    );

    const middle = await api.get('/users', { token, query: { search: tag, order_by: 'id', per_page: 2, page: 2 } });
    expect(middle.body.map((u: { id: number }) => u.id)).toEqual(ids.slice(2, 4));
    expect(headers(middle)).toEqual({ 'x-page': '2', 'x-per-page': '2', 'x-next-page': '3', 'x-prev-page': '1', 'x-total': '5', 'x-total-pages': '3' });
    expect(middle.headers.get('link')).toBe(
      [
        `<${url(`${base}&page=1`)}>; rel="prev"`,
        `<${url(`${base}&page=3`)}>; rel="next"`,
        `<${url(`${base}&page=1`)}>; rel="first"`,
        `<${url(`${base}&page=3`)}>; rel="last"`,
      ].join(', '),
    );

    const last = await api.get('/users', { token, query: { search: tag, order_by: 'id', per_page: 2, page: 3 } });
    expect(last.body.map((u: { id: number }) => u.id)).toEqual(ids.slice(4));
    expect(headers(last)).toEqual({ 'x-page': '3', 'x-per-page': '2', 'x-next-page': '', 'x-prev-page': '2', 'x-total': '5', 'x-total-pages': '3' });
    expect(last.headers.get('link')).not.toContain('rel="next"');
  });

  // Kaminari: no previous page when out of range.
  it('past the end: an empty page that still counts the total', async () => {
    const { tag, token } = await fiveUsers();
    const res = await api.get('/users', { token, query: { search: tag, per_page: 2, page: 9 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(headers(res)).toEqual({ 'x-page': '9', 'x-per-page': '2', 'x-next-page': '', 'x-prev-page': '', 'x-total': '5', 'x-total-pages': '3' });
    expect(res.headers.get('link')).not.toContain('rel="prev"');
  });

  it('an empty result: X-Total 0, X-Total-Pages 1, last is page 1', async () => {
    const { token } = await createAdmin();
    const res = await api.get('/users', { token, query: { search: unique('none') } });
    expect(headers(res)).toMatchObject({ 'x-total': '0', 'x-total-pages': '1', 'x-page': '1', 'x-per-page': '20', 'x-next-page': '' });
    expect(res.headers.get('link')).toMatch(/page=1&per_page=20>; rel="last"$/);
  });

  it('per_page over 100 is clamped to 100; default per_page is 20', async () => {
    const { token } = await createAdmin();
    expect((await api.get('/users', { token, query: { per_page: 1000 } })).headers.get('x-per-page')).toBe('100');
    expect((await api.get('/users', { token })).headers.get('x-per-page')).toBe('20');
  });

  it('per_page=0, negative pages and non-numbers are 400', async () => {
    const { token } = await createAdmin();
    const zero = await api.get('/users', { token, query: { per_page: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ error: 'per_page does not have a valid value' });
    const negative = await api.get('/users', { token, query: { page: -1 } });
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual({ error: 'page does not have a valid value' });
    expect((await api.get('/users', { token, query: { page: 'two' } })).body).toEqual({ error: 'page is invalid' });
  });
});

// GitLab leaves credentials out of the pagination links it builds: a Link URL is logged and shared like any URL.
describe('credentials in the query string never reach Link', () => {
  it('private_token and access_token are stripped; the other parameters are kept (offset and keyset)', async () => {
    const { token } = await createUser();
    await createProject(token);
    await createProject(token);
    for (const credential of ['private_token', 'access_token']) {
      const res = await api.get('/projects', { query: { [credential]: token, owned: true, per_page: 1 } });
      expect(res.status).toBe(200);
      const link = res.headers.get('link')!;
      expect(link).toContain('rel="next"');
      expect(link).not.toContain(token);
      expect(link).not.toContain(credential);
      expect(link).toContain(`<${TEST_PUBLIC_URL}/api/v4/projects?owned=true&per_page=1&page=2>; rel="next"`);

      const keyset = await api.get('/projects', { query: { [credential]: token, owned: true, per_page: 1, pagination: 'keyset', order_by: 'id' } });
      expect(keyset.status).toBe(200);
      const next = keyset.headers.get('link')!;
      expect(next).toMatch(/^<[^>]*owned=true[^>]*>; rel="next"$/);
      expect(next).not.toContain(token);
      expect(next).not.toContain(credential);
    }
  });
});
