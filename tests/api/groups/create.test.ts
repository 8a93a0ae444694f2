import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, namespaces, users } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const groupRows = (path: string) => testDb().db.select().from(namespaces).where(eq(namespaces.path, path));

describe('POST /groups', () => {
  it('creates a top-level group with the GitLab 13.6 GroupDetail fields; the creator is its Owner', async () => {
    const { user, token } = await createUser();
    const path = unique('grp');
    const res = await api.post('/groups', { token, body: { name: 'My Group', path, description: 'Hello' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      web_url: `${TEST_PUBLIC_URL}/groups/${path}`,
      name: 'My Group',
      path,
      description: 'Hello',
      visibility: 'private',
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      auto_devops_enabled: null,
      subgroup_creation_level: 'maintainer',
      emails_disabled: null,
      mentions_disabled: null,
      lfs_enabled: true,
      default_branch_protection: 2,
      avatar_url: null,
      request_access_enabled: true,
      full_name: 'My Group',
      full_path: path,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      parent_id: null,
      shared_with_groups: [],
      projects: [],
      shared_projects: [],
    });
    const [ns] = await groupRows(path);
    expect(ns!.traversalIds).toEqual([res.body.id]);
    const owner = await api.get(`/groups/${res.body.id}/members/${user.id}`, { token });
    expect(owner.body.access_level).toBe(50);
  });

  it('creates a subgroup: full path and full name nest, traversal ids extend the parent', async () => {
    const { token } = await createUser();
    const parent = await createGroup(token, { visibility: 'internal', name: 'Parent' });
    const path = unique('sub');
    const res = await api.post('/groups', { token, form: { name: 'Child', path, parent_id: String(parent.id), visibility: 'internal' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      parent_id: parent.id,
      full_path: `${parent.full_path}/${path}`,
      full_name: 'Parent / Child',
      web_url: `${TEST_PUBLIC_URL}/groups/${parent.full_path}/${path}`,
      visibility: 'internal',
    });
    const [ns] = await groupRows(path);
    expect(ns!.traversalIds).toEqual([parent.id, res.body.id]);
  });

  it('400 with every missing parameter named, as Grape does', async () => {
    const { token } = await createUser();
    const res = await api.post('/groups', { token, body: { description: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name is missing, path is missing' });
  });

  it('400 for an unknown visibility and for a non-integer parent_id', async () => {
    const { token } = await createUser();
    const bad = await api.post('/groups', { token, body: { name: 'x', path: unique('g'), visibility: 'secret' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'visibility does not have a valid value' });
    const parent = await api.post('/groups', { token, body: { name: 'x', path: unique('g'), parent_id: 'abc' } });
    expect(parent.status).toBe(400);
    expect(parent.body).toEqual({ error: 'parent_id is invalid' });
  });

  it('400 model errors for a bad path, a bad name and an over-long name', async () => {
    const { token } = await createUser();
    const path = await api.post('/groups', { token, body: { name: 'ok', path: '-bad' } });
    expect(path.status).toBe(400);
    expect(path.body).toEqual({
      message: { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."] },
    });
    const name = await api.post('/groups', { token, body: { name: '*stars*', path: unique('g') } });
    expect(name.status).toBe(400);
    expect(name.body).toEqual({
      message: { name: ["can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."] },
    });
    const long = await api.post('/groups', { token, body: { name: 'a'.repeat(256), path: unique('g') } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
  });

  it('400 when the path is taken by a group or a username (case-insensitive), and nothing is written', async () => {
    const { token } = await createUser();
    const { user: other } = await createUser();
    const existing = await createGroup(token);
    const byGroup = await api.post('/groups', { token, body: { name: 'dup', path: existing.path.toUpperCase() } });
    expect(byGroup.status).toBe(400);
    expect(byGroup.body).toEqual({ message: { path: ['has already been taken'] } });
    const byUser = await api.post('/groups', { token, body: { name: 'dup', path: other.username } });
    expect(byUser.status).toBe(400);
    expect(byUser.body).toEqual({ message: { path: ['has already been taken'] } });
    const rows = await testDb().db.select().from(namespaces).where(eq(namespaces.name, 'dup'));
    expect(rows).toEqual([]);
  });

  it('a subgroup path may repeat a path used elsewhere, but not a sibling project path', async () => {
    const { token } = await createUser();
    const a = await createGroup(token);
    const b = await createGroup(token);
    await createGroup(token, { parentId: a.id, path: 'shared' });
    await createGroup(token, { parentId: b.id, path: 'shared' });
    const project = await api.post('/projects', { token, body: { name: 'proj', path: 'proj', namespace_id: a.id } });
    expect(project.status).toBe(201);
    const clash = await api.post('/groups', { token, body: { name: 'proj', path: 'proj', parent_id: a.id } });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('concurrent creates of the same path: exactly one succeeds and one row exists', async () => {
    const { token } = await createUser();
    const path = unique('race');
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => api.post('/groups', { token, body: { name: `race ${i}`, path } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    expect(await groupRows(path)).toHaveLength(1);
    const owners = await testDb()
      .db.select()
      .from(members)
      .where(and(eq(members.sourceType, 'Namespace'), eq(members.sourceId, results.find((r) => r.status === 201)!.body.id)));
    expect(owners).toHaveLength(1);
  });

  it('a subgroup may not be more visible than its parent (400 model error, nothing written)', async () => {
    const { token } = await createUser();
    const parent = await createGroup(token, { visibility: 'private' });
    const path = unique('vis');
    const res = await api.post('/groups', { token, body: { name: 'v', path, parent_id: parent.id, visibility: 'public' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { visibility_level: ['public is not allowed since the parent group has a private visibility.'] } });
    expect(await groupRows(path)).toEqual([]);
  });

  it('404 for a parent the caller cannot see (or that does not exist), 403 for one they cannot create in', async () => {
    const { token: ownerToken } = await createUser();
    const { user: dev, token: devToken } = await createUser();
    const { token: stranger } = await createUser();
    const hidden = await createGroup(ownerToken, { visibility: 'private' });
    const open = await createGroup(ownerToken, { visibility: 'public' });
    await addMember(ownerToken, 'groups', hidden.id, dev.id, 30);
    const invisible = await api.post('/groups', { token: stranger, body: { name: 'x', path: unique('g'), parent_id: hidden.id } });
    expect(invisible.status).toBe(404);
    expect(invisible.body).toEqual({ message: '404 Group Not Found' });
    const missing = await api.post('/groups', { token: stranger, body: { name: 'x', path: unique('g'), parent_id: 0 } });
    expect(missing.status).toBe(404);
    const publicParent = await api.post('/groups', { token: stranger, body: { name: 'x', path: unique('g'), parent_id: open.id } });
    expect(publicParent.status).toBe(403);
    expect(publicParent.body).toEqual({ message: '403 Forbidden' });
    // GitLab's default subgroup_creation_level lets maintainers and owners create subgroups, not developers.
    const developer = await api.post('/groups', { token: devToken, body: { name: 'x', path: unique('g'), parent_id: hidden.id } });
    expect(developer.status).toBe(403);
  });

  it('403 for a user who may not create groups; administrators always may', async () => {
    const { user, token } = await createUser();
    await testDb().db.update(users).set({ canCreateGroup: false }).where(eq(users.id, user.id));
    const res = await api.post('/groups', { token, body: { name: 'x', path: unique('g') } });
    expect(res.status).toBe(403);
    const { token: adminToken } = await createAdmin();
    expect((await api.post('/groups', { token: adminToken, body: { name: 'x', path: unique('g') } })).status).toBe(201);
  });

  it('401 for anonymous callers before parameters are checked', async () => {
    const res = await api.post('/groups', { body: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  describeAuthorization('POST /groups (subgroup)', {
    fixture: async () => {
      const owner = await createUser();
      const dev = await createUser();
      const stranger = await createUser();
      const parent = await createGroup(owner.token, { visibility: 'private' });
      await addMember(owner.token, 'groups', parent.id, dev.user.id, 30);
      return { allowed: owner.token, nonMember: stranger.token, insufficientRole: dev.token, parent };
    },
    call: (fx, token) => api.post('/groups', { token, body: { name: 'authz', path: unique('authz'), parent_id: fx.parent.id } }),
    success: 201,
    nonMember: { status: 404, body: { message: '404 Group Not Found' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('who may create inside a group (GitLab defaults)', () => {
  it('maintainers create subgroups; developers create projects; reporters neither', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'private' });
    const roles = { maintainer: await createUser(), developer: await createUser(), reporter: await createUser() };
    await addMember(owner.token, 'groups', group.id, roles.maintainer.user.id, 40);
    await addMember(owner.token, 'groups', group.id, roles.developer.user.id, 30);
    await addMember(owner.token, 'groups', group.id, roles.reporter.user.id, 20);
    const subgroup = (token: string) => api.post('/groups', { token, body: { name: 'sub', path: unique('sub'), parent_id: group.id } });
    const project = (token: string) => api.post('/projects', { token, body: { name: unique('p'), namespace_id: group.id } });
    expect((await subgroup(roles.maintainer.token)).status).toBe(201);
    expect((await subgroup(roles.developer.token)).status).toBe(403);
    expect((await project(roles.developer.token)).status).toBe(201);
    expect(await project(roles.reporter.token)).toMatchObject({ status: 400, body: { message: { namespace: ['is not valid'] } } });
  });
});
