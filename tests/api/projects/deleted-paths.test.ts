// A deleted project or group frees its path at once (GitLab's delayed deletion renames the pending row): the same
// path can be created right after the 202, below a deleted group too, and the renamed rows hold paths no one can
// ask for. Races between a delete and a create never leave two live rows with one path, nor a hidden row holding a
// path. Under TEST_DB=postgres the races run on concurrent connections; on PGlite they interleave on one.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { namespaces, projects } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const db = () => testDb().db;
const projectRows = (fullPath: string) =>
  db()
    .select()
    .from(projects)
    .where(sql`lower(${projects.pathWithNamespace}) = lower(${fullPath})`);
const liveProjects = (fullPath: string) =>
  db()
    .select({ id: projects.id })
    .from(projects)
    .where(and(sql`lower(${projects.pathWithNamespace}) = lower(${fullPath})`, isNull(projects.deletedAt)));
const liveGroups = (fullPath: string) =>
  db()
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(and(sql`lower(${namespaces.fullPath}) = lower(${fullPath})`, isNull(namespaces.deletedAt)));
const projectRow = async (id: number) => (await db().select().from(projects).where(eq(projects.id, id)))[0]!;
const groupRow = async (id: number) => (await db().select().from(namespaces).where(eq(namespaces.id, id)))[0]!;

describe('a deleted path is free at once', () => {
  it('project: the same name and path are created right after the 202; the path now names the new project', async () => {
    const { token } = await createUser();
    const old = await createProject(token, { name: 'Same Name', path: unique('same-') });
    expect((await api.delete(`/projects/${old.id}`, { token })).status).toBe(202);
    const again = await api.post('/projects', { token, body: { name: 'Same Name', path: old.path } });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ name: 'Same Name', path: old.path, path_with_namespace: old.path_with_namespace });
    expect(again.body.id).not.toBe(old.id);
    const byPath = await api.get(`/projects/${encodeURIComponent(old.path_with_namespace)}`, { token });
    expect(byPath.body.id).toBe(again.body.id);
    expect((await api.get(`/projects/${old.id}`, { token })).status).toBe(404);
    // A rename (PUT path) to a deleted project's path works too.
    const other = await createProject(token);
    expect((await api.delete(`/projects/${again.body.id}`, { token })).status).toBe(202);
    expect(await api.put(`/projects/${other.id}`, { token, body: { path: old.path } })).toMatchObject({
      status: 200,
      body: { path_with_namespace: old.path_with_namespace },
    });
  });

  it('group: the group, its subgroups and their projects are created again at the same paths right after the 202', async () => {
    const { token } = await createUser();
    const top = await createGroup(token);
    const sub = await createGroup(token, { parentId: top.id, path: 'sub' });
    const inTop = await createProject(token, { namespaceId: top.id, name: 'Top Project', path: 'top-project' });
    const inSub = await createProject(token, { namespaceId: sub.id, name: 'Sub Project', path: 'sub-project' });
    expect((await api.delete(`/groups/${top.id}`, { token })).status).toBe(202);

    const top2 = await api.post('/groups', { token, body: { name: top.name, path: top.path } });
    expect(top2.status, top2.text).toBe(201);
    expect(top2.body.full_path).toBe(top.full_path);
    const sub2 = await api.post('/groups', { token, body: { name: 'sub', path: 'sub', parent_id: top2.body.id } });
    expect(sub2.status, sub2.text).toBe(201);
    expect(sub2.body.full_path).toBe(sub.full_path);
    for (const [ns, old] of [
      [top2.body.id, inTop],
      [sub2.body.id, inSub],
    ] as const) {
      const res = await api.post('/projects', { token, body: { name: old.name, path: old.path, namespace_id: ns } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.path_with_namespace).toBe(old.path_with_namespace);
    }
    expect((await api.get(`/groups/${encodeURIComponent(top.full_path)}`, { token })).body.id).toBe(top2.body.id);
    expect((await api.get(`/groups/${encodeURIComponent(sub.full_path)}`, { token })).body.id).toBe(sub2.body.id);
    for (const path of [top.full_path, sub.full_path]) expect(await liveGroups(path)).toHaveLength(1);
  });

  it('a deleted subgroup, and a project deleted before its group, free their paths too', async () => {
    const { token } = await createUser();
    const top = await createGroup(token);
    const sub = await createGroup(token, { parentId: top.id, path: 'child' });
    const p = await createProject(token, { namespaceId: top.id, path: 'first' });
    expect((await api.delete(`/groups/${sub.id}`, { token })).status).toBe(202);
    expect((await api.post('/groups', { token, body: { name: 'child', path: 'child', parent_id: top.id } })).status).toBe(201);
    expect((await api.delete(`/projects/${p.id}`, { token })).status).toBe(202);
    expect((await api.delete(`/groups/${top.id}`, { token })).status).toBe(202);
    const top2 = await api.post('/groups', { token, body: { name: top.name, path: top.path } });
    expect(top2.status).toBe(201);
    expect((await api.post('/projects', { token, body: { path: 'first', namespace_id: top2.body.id } })).status).toBe(201);
    expect((await api.post('/groups', { token, body: { name: 'child', path: 'child', parent_id: top2.body.id } })).status).toBe(201);
  });

  it("a hard-deleted user's sole-owned group frees its path", async () => {
    const { user, token } = await createUser();
    const { token: admin } = await createAdmin();
    const group = await createGroup(token);
    expect((await api.delete(`/users/${user.id}`, { token: admin, query: { hard_delete: true } })).status).toBe(204);
    expect((await api.post('/groups', { token: admin, body: { name: group.name, path: group.path } })).status).toBe(201);
  });

  it('the renamed rows hold paths and names no one can create, and stay below what was deleted', async () => {
    const { token } = await createUser();
    const group = await createGroup(token);
    const sub = await createGroup(token, { parentId: group.id });
    const p = await createProject(token, { namespaceId: sub.id });
    const q = await createProject(token);
    expect((await api.delete(`/projects/${q.id}`, { token })).status).toBe(202);
    expect((await api.delete(`/groups/${group.id}`, { token })).status).toBe(202);
    const renamed = await projectRow(q.id);
    expect(renamed.pathWithNamespace).not.toBe(q.path_with_namespace);
    // The deleted rows keep their place under what was deleted (prefix moved with the group).
    const g = await groupRow(group.id);
    expect((await groupRow(sub.id)).fullPath.startsWith(`${g.fullPath}/`)).toBe(true);
    expect((await projectRow(p.id)).pathWithNamespace.startsWith(`${g.fullPath}/`)).toBe(true);
    // What a deleted row holds is refused as a path (and as a name) by every create.
    expect(await api.post('/projects', { token, body: { name: 'ok', path: renamed.path } })).toMatchObject({ status: 400 });
    expect(await api.post('/projects', { token, body: { name: renamed.name } })).toMatchObject({ status: 400 });
    expect(await api.post('/groups', { token, body: { name: 'ok', path: g.path } })).toMatchObject({ status: 400 });
  });
});

describe('a delete racing a create of the same path', () => {
  it('project: DELETE and POST of its path together, ten times: never two live rows with the path', async () => {
    const { token } = await createUser();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        const old = await createProject(token);
        const [deleted, created] = await Promise.all([
          api.delete(`/projects/${old.id}`, { token }),
          api.post('/projects', { token, body: { name: old.name, path: old.path } }),
        ]);
        expect(deleted.status).toBe(202);
        // The create ran before the rename (taken) or after it (free).
        expect([201, 400], created.text).toContain(created.status);
        const live = await liveProjects(old.path_with_namespace);
        expect(live).toEqual(created.status === 201 ? [{ id: created.body.id }] : []);
        expect((await projectRows(old.path_with_namespace)).length).toBe(live.length);
      }),
    );
  });

  it('group: DELETE of a group while projects and subgroups are created in it: nothing created there keeps a path', async () => {
    const { token } = await createUser();
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const group = await createGroup(token);
        const [deleted, ...created] = await Promise.all([
          api.delete(`/groups/${group.id}`, { token }),
          api.post('/projects', { token, body: { path: 'racer', namespace_id: group.id } }),
          api.post('/groups', { token, body: { name: 'racer-group', path: 'racer-group', parent_id: group.id } }),
        ]);
        expect(deleted.status).toBe(202);
        for (const r of created) expect([201, 400, 404], r.text).toContain(r.status);
        // Whatever was created went with the group: the paths below it are free for a new group of the same path.
        const again = await createGroup(token, { path: group.path });
        expect((await api.post('/projects', { token, body: { path: 'racer', namespace_id: again.id } })).status).toBe(201);
        expect((await api.post('/groups', { token, body: { name: 'racer-group', path: 'racer-group', parent_id: again.id } })).status).toBe(201);
        expect(await liveProjects(`${group.full_path}/racer`)).toHaveLength(1);
        expect(await liveGroups(`${group.full_path}/racer-group`)).toHaveLength(1);
      }),
    );
  });
});
