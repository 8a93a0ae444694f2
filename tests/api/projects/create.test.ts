import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';
import { createGroup } from '../../factories/groups.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projects } from '../../../db/schema/index.ts';
import { eq } from 'drizzle-orm';

describe('POST /projects', () => {
  it('creates a private project in the personal namespace, with GitLab fields', async () => {
    const { user, token } = await createUser();
    const name = unique('Proj ');
    const res = await api.post('/projects', { token, body: { name, description: 'Hello' } });
    expect(res.status).toBe(201);
    const path = name.toLowerCase().replace(/ /g, '-');
    expect(res.body).toMatchObject({
      name,
      path,
      path_with_namespace: `${user.username}/${path}`,
      name_with_namespace: `${user.name} / ${name}`,
      description: 'Hello',
      visibility: 'private',
      default_branch: null,
      archived: false,
      star_count: 0,
      forks_count: 0,
      creator_id: user.id,
      web_url: `${TEST_PUBLIC_URL}/${user.username}/${path}`,
      http_url_to_repo: `${TEST_PUBLIC_URL}/${user.username}/${path}.git`,
      ssh_url_to_repo: `git@gitlab.example.test:${user.username}/${path}.git`,
      namespace: { kind: 'user', path: user.username, full_path: user.username, parent_id: null },
      owner: { id: user.id, username: user.username },
      _links: { self: `${TEST_PUBLIC_URL}/api/v4/projects/${res.body.id}` },
    });
    expect(res.body).not.toHaveProperty('forked_from_project');
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('accepts parameters as a form body and as a query string', async () => {
    const { token } = await createUser();
    const form = await api.post('/projects', { token, form: { name: unique('form'), visibility: 'public' } });
    expect(form.status).toBe(201);
    expect(form.body.visibility).toBe('public');
    const query = await api.post('/projects', { token, query: { path: unique('query'), visibility: 'internal' } });
    expect(query.status).toBe(201);
    expect(query.body.visibility).toBe('internal');
    expect(query.body.name).toBe(query.body.path);
  });

  it('400 when neither name nor path is given', async () => {
    const { token } = await createUser();
    const res = await api.post('/projects', { token, body: { description: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
  });

  it('400 for an unknown visibility, and the removed `public` param is not honoured', async () => {
    const { token } = await createUser();
    const bad = await api.post('/projects', { token, body: { name: unique('p'), visibility: 'secret' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'visibility does not have a valid value' });
    const legacy = await api.post('/projects', { token, body: { name: unique('p'), public: true } });
    expect(legacy.status).toBe(201);
    expect(legacy.body.visibility).toBe('private');
  });

  it('400 model errors for bad paths, over-long names and control characters', async () => {
    const { token } = await createUser();
    const path = await api.post('/projects', { token, body: { path: '-bad' } });
    expect(path.status).toBe(400);
    expect(path.body).toEqual({
      message: { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] },
    });
    const long = await api.post('/projects', { token, body: { name: 'a'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    const control = await api.post('/projects', { token, body: { name: 'a\u0007b' } });
    expect(control.status).toBe(400);
    expect(control.body).toEqual({ error: 'name is invalid' });
  });

  it('400 when the path is taken, and nothing is created', async () => {
    const { user, token } = await createUser();
    const first = await createProject(token);
    const res = await api.post('/projects', { token, body: { name: unique('other'), path: first.path } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    const rows = await testDb().db.select().from(projects).where(eq(projects.creatorId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('400 when the name is taken in the namespace', async () => {
    const { token } = await createUser();
    const first = await createProject(token);
    const res = await api.post('/projects', { token, body: { name: first.name, path: unique('p') } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ['has already been taken'] } });
  });

  it('concurrent creates of the same path: exactly one succeeds', async () => {
    const { token } = await createUser();
    const path = unique('race');
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => api.post('/projects', { token, body: { name: `${path}-${i}`, path } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('400 namespace is not valid for a namespace the caller cannot create in, or one that does not exist', async () => {
    const { token } = await createUser();
    const { user: other } = await createUser();
    for (const namespace_id of [other.username, '99999999999', 'no/such/group']) {
      const res = await api.post('/projects', { token, body: { name: unique('p'), namespace_id } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
    }
  });

  it('a project path may not take a subgroup path, nor a subgroup a project path', async () => {
    const { token } = await createUser();
    const group = await createGroup(token);
    const sub = await createGroup(token, { parentId: group.id });
    const clash = await api.post('/projects', { token, body: { name: unique('p'), path: sub.path, namespace_id: group.id } });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ message: { path: ['has already been taken'] } });
    const project = await createProject(token, { namespaceId: group.id });
    const renamed = await api.put(`/projects/${project.id}`, { token, body: { path: sub.path } });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toEqual({ message: { path: ['has already been taken'] } });
    const subgroup = await api.post('/groups', { token, body: { name: 'x', path: project.path, parent_id: group.id } });
    expect(subgroup.status).toBe(400);
    expect(subgroup.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('a project and a subgroup racing for one path: exactly one gets it', async () => {
    const { token } = await createUser();
    const group = await createGroup(token);
    for (let round = 0; round < 3; round++) {
      const path = unique('contested');
      const results = await Promise.all([
        api.post('/projects', { token, body: { name: unique('p'), path, namespace_id: group.id } }),
        api.post('/groups', { token, body: { name: 'g', path, parent_id: group.id } }),
        api.post('/projects', { token, body: { name: unique('p'), path, namespace_id: group.id } }),
        api.post('/groups', { token, body: { name: 'g2', path, parent_id: group.id } }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    }
  });

  describeAuthorization('POST /projects', {
    fixture: async () => ({ allowed: (await createUser()).token }),
    call: (_fx, token) => api.post('/projects', { token, body: { name: unique('authz') } }),
    success: 201,
  });
});

describe('POST /projects/user/:user_id', () => {
  it('lets an administrator create a project for a user', async () => {
    const admin = await createAdmin();
    const { user } = await createUser();
    const res = await api.post(`/projects/user/${user.id}`, { token: admin.token, body: { name: unique('for') } });
    expect(res.status).toBe(201);
    expect(res.body.namespace.full_path).toBe(user.username);
    expect(res.body.owner.id).toBe(user.id);
    const members = await api.get(`/projects/${res.body.id}`, { token: (await createUser()).token });
    expect(members.status).toBe(404);
  });

  describeAuthorization('POST /projects/user/:user_id', {
    fixture: async () => {
      const admin = await createAdmin();
      const { user } = await createUser();
      return { allowed: admin.token, userId: user.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.post(`/projects/user/${fx.userId}`, { token, body: { name: unique('authz') } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});
