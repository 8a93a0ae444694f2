// GitLab's router squeezes repeated `/` and ignores a trailing `/` (python-gitlab sends `POST /api/v4/features//NAME`
// and `GET /api/v4/features/`): the same request reaches the same route, on REST, OAuth and GraphQL paths alike,
// without a redirect and with the query string untouched.
import { describe, expect, it } from 'vitest';
import { request, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';

describe('repeated and trailing slashes', () => {
  it('features: POST /features//NAME, GET /features/, DELETE /features//NAME', async () => {
    const { token } = await createAdmin();
    const name = unique('flag_');
    const set = await request('POST', `/api/v4/features//${name}`, { token, form: { value: 'true' } });
    expect(set.status, set.text).toBe(201);
    expect(set.body).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
    const list = await request('GET', '/api/v4/features/', { token, query: { per_page: 100 } });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    const removed = await request('DELETE', `/api/v4//features//${name}/`, { token });
    expect(removed.status).toBe(204);
  });

  it('projects: GET /projects/ lists projects; the Link URLs carry the clean path and the query as sent', async () => {
    const { token } = await createAdmin();
    const project = await createProject(token);
    const list = await request('GET', '/api/v4/projects/', { token, query: { per_page: 1, search: project.path } });
    expect(list.status).toBe(200);
    expect(list.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect(list.headers.get('link')).toContain(`<${TEST_PUBLIC_URL}/api/v4/projects?per_page=1&search=${project.path}&page=1>; rel="first"`);
    const one = await request('GET', `/api/v4//projects//${project.id}//`, { token });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(project.id);
  });

  it('a value in the query string keeps its slashes', async () => {
    const { token } = await createAdmin();
    const res = await request('GET', '/api/v4/projects/', { token, query: { search: 'no//such//project' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toContain('search=no%2F%2Fsuch%2F%2Fproject');
  });

  it('version and user, and an unknown route is still a 404', async () => {
    const { token } = await createAdmin();
    expect((await request('GET', '/api/v4//version/', { token })).status).toBe(200);
    expect((await request('GET', '/api//v4/user/', { token })).status).toBe(200);
    expect(await request('GET', '/api/v4//no-such-thing/', { token })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });

  it('OAuth and GraphQL paths', async () => {
    const metadata = await request('GET', '/.well-known//oauth-authorization-server/');
    expect(metadata.status).toBe(200);
    expect(metadata.body.issuer).toBe(TEST_PUBLIC_URL);
    const token = await request('POST', '/oauth//token/', { form: { grant_type: 'authorization_code' } });
    expect(token.status).not.toBe(404);
    expect(token.body.error).toBeTruthy();
    const gql = await request('POST', '/api//graphql/', { body: { query: '{ echo(text: "hi") }' } });
    expect(gql).toMatchObject({ status: 200, body: { data: { echo: 'nil says: hi' } } });
    const get = await request('GET', '/api/graphql/', { query: { query: '{ echo(text: "get") }' } });
    expect(get).toMatchObject({ status: 200, body: { data: { echo: 'nil says: get' } } });
  });
});
