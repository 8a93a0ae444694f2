import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { snippets } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet, createSnippet } from '../../factories/snippets.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const NOT_FOUND = { message: '404 Snippet Not Found' };

describe('project snippets', () => {
  it('creates, reads (by id and by path), updates and deletes a project snippet; the entity has no expires_at', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const base = `/projects/${project.id}/snippets`;
    const created = await api.post(base, {
      token: owner.token,
      body: { title: 'Project snippet', description: 'd', visibility: 'internal', file_name: 'x.sh', content: 'echo x' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const web = `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/snippets/${id}`;
    expect(created.body).toEqual({
      id,
      title: 'Project snippet',
      description: 'd',
      visibility: 'internal',
      author: expect.objectContaining({ id: owner.user.id, username: owner.user.username }),
      updated_at: expect.any(String),
      created_at: expect.any(String),
      project_id: project.id,
      web_url: web,
      raw_url: `${web}/raw`,
      file_name: 'x.sh',
      files: [{ path: 'x.sh', raw_url: `${web}/raw/master/x.sh` }],
    });
    expect(created.body).not.toHaveProperty('expires_at');
    const [row] = await testDb().db.select().from(snippets).where(eq(snippets.id, id));
    expect(row).toMatchObject({ type: 'ProjectSnippet', projectId: project.id, visibilityLevel: 10 });

    const read = await api.get(`${base}/${id}`, { token: owner.token });
    expect(read.body).toEqual(created.body);
    expect(read.body).not.toHaveProperty('expires_at');
    expect(queryCount(read)).toBeLessThanOrEqual(3);
    const byPath = await api.get(`/projects/${encodeURIComponent(project.path_with_namespace)}/snippets/${id}`, { token: owner.token });
    expect(byPath.body).toEqual(created.body);

    const raw = await api.get(`${base}/${id}/raw`, { token: owner.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.text).toBe('echo x');
    const rawFile = await api.get(`${base}/${id}/files/master/x.sh/raw`, { token: owner.token });
    expect(rawFile.text).toBe('echo x');

    const updated = await api.put(`${base}/${id}`, { token: owner.token, body: { title: 'Renamed', visibility: 'private' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, title: 'Renamed', visibility: 'private', project_id: project.id, file_name: 'x.sh' });
    expect(updated.body).not.toHaveProperty('expires_at');

    // A project's snippet is not a personal one, nor another project's.
    expect(await api.get(`/snippets/${id}`, { token: owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
    const other = await createProject(owner.token);
    expect(await api.get(`/projects/${other.id}/snippets/${id}`, { token: owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
    const personal = await createSnippet(owner.token);
    expect(await api.get(`${base}/${personal.id}`, { token: owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });

    const deleted = await api.delete(`${base}/${id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect(await api.get(`${base}/${id}`, { token: owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('lists the project snippets the caller may see, newest first, with pagination headers, in constant queries', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const pub = await createProjectSnippet(owner.token, project.id, { visibility: 'public' });
    const internal = await createProjectSnippet(owner.token, project.id, { visibility: 'internal' });
    const priv = await createProjectSnippet(owner.token, project.id, { visibility: 'private' });
    const list = (token?: string, query?: Record<string, number>) => api.get(`/projects/${project.id}/snippets`, { token, query });

    const mine = await list(owner.token);
    expect(mine.body.map((s: any) => s.id)).toEqual([priv.id, internal.id, pub.id]);
    expect(mine.body[0]).toEqual(priv);
    expect(mine.headers.get('x-total')).toBe('3');
    expect(queryCount(mine)).toBeLessThanOrEqual(3);

    expect((await list(stranger.token)).body.map((s: any) => s.id)).toEqual([internal.id, pub.id]);
    const anonymous = await list(undefined);
    expect(anonymous.body.map((s: any) => s.id)).toEqual([pub.id]);
    expect(anonymous.headers.get('x-total')).toBe('1');

    const page = await list(owner.token, { per_page: 1, page: 2 });
    expect(page.body.map((s: any) => s.id)).toEqual([internal.id]);
    expect(page.headers.get('x-next-page')).toBe('3');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-total-pages')).toBe('3');

    for (let i = 0; i < 4; i++)
      await createProjectSnippet(owner.token, project.id, {
        files: [
          { file_path: 'a', content: 'a' },
          { file_path: 'b', content: 'b' },
        ],
      });
    const more = await list(owner.token);
    expect(more.body).toHaveLength(7);
    expect(queryCount(more)).toBeLessThanOrEqual(queryCount(mine));
  });

  it("visibility: a private project hides its snippets from non-members (404 Project Not Found); members see private snippets; the snippet's own visibility applies", async () => {
    const owner = await createUser();
    const guest = await createUser();
    const stranger = await createUser();
    const external = await createUser({ external: true });
    const admin = await createAdmin();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const privateProject = await createProject(owner.token, { visibility: 'private', namespaceId: group.id });
    const publicProject = await createProject(owner.token, { visibility: 'public', namespaceId: group.id });
    await addMember(owner.token, 'projects', privateProject.id, guest.user.id, 10);

    const inPrivate = await createProjectSnippet(owner.token, privateProject.id, { visibility: 'public' });
    const path = `/projects/${privateProject.id}/snippets/${inPrivate.id}`;
    expect(await api.get(path, { token: stranger.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(path)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await api.get(path, { token: guest.token })).status).toBe(200);
    expect((await api.get(path, { token: admin.token })).status).toBe(200);
    expect(await api.get(`/projects/${privateProject.id}/snippets`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });

    const priv = await createProjectSnippet(owner.token, publicProject.id, { visibility: 'private' });
    const internal = await createProjectSnippet(owner.token, publicProject.id, { visibility: 'internal' });
    const get = (s: { id: number }, token?: string) => api.get(`/projects/${publicProject.id}/snippets/${s.id}`, { token });
    expect(await get(priv, stranger.token)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await get(priv)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await get(priv, admin.token)).status).toBe(200);
    expect((await get(priv, owner.token)).status).toBe(200);
    expect((await get(internal, stranger.token)).status).toBe(200);
    expect(await get(internal, external.token)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await get(internal)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.get(`/projects/${publicProject.id}/snippets/${priv.id}/raw`, { token: stranger.token })).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('permissions: reporters create, guests may not (403); authors and maintainers update and delete, others 403', async () => {
    const owner = await createUser();
    const maintainer = await createUser();
    const developer = await createUser();
    const reporter = await createUser();
    const guest = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const base = `/projects/${project.id}/snippets`;
    const body = { title: 't', visibility: 'private', file_name: 'f', content: 'c' };

    expect(await api.post(base, { token: guest.token, body })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const byReporter = await api.post(base, { token: reporter.token, body });
    expect(byReporter.status).toBe(201);
    const id = byReporter.body.id;

    // Members see private snippets; only the author and maintainers+ change them.
    expect((await api.get(`${base}/${id}`, { token: guest.token })).status).toBe(200);
    expect(await api.put(`${base}/${id}`, { token: developer.token, body: { title: 'dev' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api.delete(`${base}/${id}`, { token: guest.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api.put(`${base}/${id}`, { token: reporter.token, body: { title: 'author' } })).status).toBe(200);
    expect((await api.put(`${base}/${id}`, { token: maintainer.token, body: { title: 'maintainer' } })).body.title).toBe('maintainer');
    expect((await api.delete(`${base}/${id}`, { token: maintainer.token })).status).toBe(204);
  });
});
