// Parameters arrive as query, form or JSON alike (Grape merges them, body over query); CORS for browser clients.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../../db/schema/index.ts';
import { createApp } from '../../../functions/app.ts';
import { api, request, testDb, testEnv, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const bioOf = async (id: number) => (await testDb().db.select().from(users).where(eq(users.id, id)))[0]!.bio;

describe('parameters: query, form and JSON alike', () => {
  it("the same update through each transport, with Grape's coercions", async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const viaQuery = await api.put(`/users/${user.id}`, { token, query: { bio: 'from query', private_profile: 'true', projects_limit: '7' } });
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body).toMatchObject({ bio: 'from query', private_profile: true, projects_limit: 7 });
    const viaForm = await api.put(`/users/${user.id}`, { token, form: { bio: 'from form', private_profile: '0', projects_limit: '8' } });
    expect(viaForm.body).toMatchObject({ bio: 'from form', private_profile: false, projects_limit: 8 });
    const viaJson = await api.put(`/users/${user.id}`, { token, body: { bio: 'from json', private_profile: true, projects_limit: 9 } });
    expect(viaJson.body).toMatchObject({ bio: 'from json', private_profile: true, projects_limit: 9 });
    expect(await bioOf(user.id)).toBe('from json');
  });

  it('the body wins over the query string', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.put(`/users/${user.id}`, { token, query: { bio: 'query' }, body: { bio: 'body' } });
    expect(res.body.bio).toBe('body');
  });

  it('JSON with a +json media type and a charset parameter is read as JSON', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const app = createApp({ database: () => ({ open: () => testDb() }) });
    const res = await app.fetch(
      new Request(`${TEST_PUBLIC_URL}/api/v4/users/${user.id}`, {
        method: 'PUT',
        headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/vnd.api+json; charset=utf-8' },
        body: JSON.stringify({ bio: 'vendor json' }),
      }),
      testEnv,
    );
    expect(res.status).toBe(200);
    expect(await bioOf(user.id)).toBe('vendor json');
  });

  it('control characters are refused in names and search terms', async () => {
    const { token } = await createAdmin();
    expect((await api.get('/users', { token, query: { search: 'a\u0000b' } })).body).toEqual({ error: 'search is invalid' });
  });
});

describe('CORS', () => {
  it('preflight from another origin: any origin, no credentials, pagination headers and X-Request-Id exposed', async () => {
    const res = await request('OPTIONS', '/api/v4/projects', {
      headers: { Origin: 'https://spa.example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('content-type');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of ['link', 'x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'x-request-id']) expect(exposed).toContain(h);
  });

  it('actual cross-origin requests get the same headers', async () => {
    const { user } = await createUser();
    const res = await api.get(`/users/${user.id}`, { headers: { Origin: 'https://spa.example.org' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect((res.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('x-total');
  });
});
