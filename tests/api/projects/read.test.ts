import { describe, expect, it } from 'vitest';
import { api, queryCount } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';

describe('GET /projects/:id', () => {
  it('by id or URL-encoded path; ProjectWithAccess for members', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    for (const ref of [String(p.id), encodeURIComponent(p.path_with_namespace), encodeURIComponent(p.path_with_namespace.toUpperCase())]) {
      const res = await api.get(`/projects/${ref}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(p.id);
      expect(res.body.permissions).toEqual({ project_access: { access_level: 50, notification_level: 3 }, group_access: null });
    }
  });

  it('private: 404 for non-members and anonymous callers, 200 for admins', async () => {
    const { token } = await createUser();
    const p = await createProject(token, { visibility: 'private' });
    const other = await createUser();
    expect(await api.get(`/projects/${p.id}`, { token: other.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(`/projects/${p.id}`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const admin = await createAdmin();
    const res = await api.get(`/projects/${p.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ project_access: null, group_access: null });
  });

  it('internal: signed-in users only; external users not; public: everyone', async () => {
    const { token } = await createUser();
    const internal = await createProject(token, { visibility: 'internal' });
    const pub = await createProject(token, { visibility: 'public' });
    const other = await createUser();
    const external = await createUser({ external: true });
    expect((await api.get(`/projects/${internal.id}`, { token: other.token })).status).toBe(200);
    expect((await api.get(`/projects/${internal.id}`, { token: external.token })).status).toBe(404);
    expect((await api.get(`/projects/${internal.id}`)).status).toBe(404);
    const anon = await api.get(`/projects/${pub.id}`);
    expect(anon.status).toBe(200);
    expect(anon.body).not.toHaveProperty('permissions');
    expect(anon.body.visibility).toBe('public');
  });

  it('a reference without a slash or out of range is not found; an unencoded slash is an unknown route', async () => {
    const { user, token } = await createUser();
    await createProject(token);
    expect(await api.get(`/projects/${user.username}`, { token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get('/projects/0', { token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get('/projects/99999999999', { token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(`/projects/${user.username}/x`, { token })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });

  it('costs at most 2 queries when authenticated (token lookup + project)', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    await api.get('/user', { token }); // first use records last_used_at
    const res = await api.get(`/projects/${p.id}`, { token });
    expect(res.status).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(2);
  });
});

describe('GET /projects', () => {
  async function seed(n: number) {
    const owner = await createUser();
    const tag = unique('tag');
    const made = [];
    for (let i = 0; i < n; i++) made.push(await createProject(owner.token, { name: `${tag} ${i}`, visibility: i % 2 ? 'public' : 'private' }));
    return { owner, tag, made };
  }

  it('returns everything visible, with or without authentication', async () => {
    const { owner, tag, made } = await seed(4);
    const mine = await api.get('/projects', { token: owner.token, query: { search: tag } });
    expect(mine.status).toBe(200);
    expect(mine.body.map((p: any) => p.id).sort()).toEqual(made.map((p) => p.id).sort());
    const other = await createUser();
    const theirs = await api.get('/projects', { token: other.token, query: { search: tag } });
    expect(theirs.body.map((p: any) => p.visibility)).toEqual(['public', 'public']);
    const anon = await api.get('/projects', { query: { search: tag } });
    expect(anon.status).toBe(200);
    expect(anon.body).toHaveLength(2);
    // Anonymous callers get BasicProjectDetails.
    expect(Object.keys(anon.body[0])).not.toContain('permissions');
    expect(Object.keys(anon.body[0])).not.toContain('visibility');
  });

  it('filters: owned, membership, visibility, starred, simple; order_by/sort', async () => {
    const { owner, tag, made } = await seed(3);
    const other = await createUser();
    expect((await api.get('/projects', { token: other.token, query: { search: tag, owned: true } })).body).toEqual([]);
    expect((await api.get('/projects', { token: other.token, query: { search: tag, membership: true } })).body).toEqual([]);
    const owned = await api.get('/projects', { token: owner.token, query: { search: tag, owned: true, visibility: 'private', order_by: 'name', sort: 'asc' } });
    expect(owned.body.map((p: any) => p.name)).toEqual([`${tag} 0`, `${tag} 2`]);
    await api.post(`/projects/${made[1]!.id}/star`, { token: other.token });
    const starred = await api.get('/projects', { token: other.token, query: { starred: true, search: tag } });
    expect(starred.body.map((p: any) => p.id)).toEqual([made[1]!.id]);
    const simple = await api.get('/projects', { token: owner.token, query: { search: tag, simple: true } });
    expect(simple.body[0]).not.toHaveProperty('permissions');
    expect(simple.body[0]).toHaveProperty('path_with_namespace');
    const anonOwned = await api.get('/projects', { query: { owned: true } });
    expect(anonOwned.body).toEqual([]);
  });

  it('offset pagination headers and Link', async () => {
    const { owner, tag } = await seed(5);
    const res = await api.get('/projects', { token: owner.token, query: { search: tag, per_page: 2, page: 2, order_by: 'id', sort: 'asc' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get('x-page')).toBe('2');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    const base = `https://gitlab.example.test/api/v4/projects?search=${encodeURIComponent(tag).replace(/%20/g, '+')}`;
    expect(res.headers.get('link')).toBe(
      [
        `<${base}&per_page=2&page=1&order_by=id&sort=asc>; rel="prev"`,
        `<${base}&per_page=2&page=3&order_by=id&sort=asc>; rel="next"`,
        `<${base}&per_page=2&page=1&order_by=id&sort=asc>; rel="first"`,
        `<${base}&per_page=2&page=3&order_by=id&sort=asc>; rel="last"`,
      ].join(', '),
    );
  });

  it('keyset pagination: Link rel="next" with id_after until the end', async () => {
    const { owner, tag, made } = await seed(5);
    const seen: number[] = [];
    let query: Record<string, string | number> = { search: tag, pagination: 'keyset', per_page: 2, order_by: 'id', sort: 'asc' };
    for (let i = 0; i < 5; i++) {
      const res = await api.get('/projects', { token: owner.token, query });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      seen.push(...res.body.map((p: any) => p.id));
      const link = res.headers.get('link');
      if (!link) break;
      const m = /^<([^>]+)>; rel="next"$/.exec(link);
      expect(m).not.toBeNull();
      query = Object.fromEntries(new URL(m![1]!).searchParams);
    }
    expect(seen).toEqual(made.map((p) => p.id));
    const unsupported = await api.get('/projects', { token: owner.token, query: { pagination: 'keyset', order_by: 'name' } });
    expect(unsupported.status).toBe(405);
    expect(unsupported.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
  });

  it('per_page=100 costs at most 3 queries whatever the page size', async () => {
    const { owner } = await seed(3);
    await api.get('/user', { token: owner.token });
    for (const query of [{ per_page: 100 }, { per_page: 100, page: 2 }, { per_page: 1 }] as Record<string, number>[]) {
      const res = await api.get('/projects', { token: owner.token, query });
      expect(res.status).toBe(200);
      expect(queryCount(res)).toBeLessThanOrEqual(3);
    }
  });

  it('bad parameters', async () => {
    expect(await api.get('/projects', { query: { per_page: 0 } })).toMatchObject({ status: 400, body: { error: 'per_page does not have a valid value' } });
    expect(await api.get('/projects', { query: { visibility: 'secret' } })).toMatchObject({
      status: 400,
      body: { error: 'visibility does not have a valid value' },
    });
    expect(await api.get('/projects', { query: { order_by: 'stars' } })).toMatchObject({
      status: 400,
      body: { error: 'order_by does not have a valid value' },
    });
    expect(await api.get('/projects', { query: { min_access_level: 35 } })).toMatchObject({
      status: 400,
      body: { error: 'min_access_level does not have a valid value' },
    });
    expect(await api.get('/projects', { query: { owned: 'maybe' } })).toMatchObject({ status: 400, body: { error: 'owned is invalid' } });
    const clamped = await api.get('/projects', { query: { per_page: 1000 } });
    expect(clamped.status).toBe(200);
    expect(clamped.headers.get('x-per-page')).toBe('100');
  });
});
