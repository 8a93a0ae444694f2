import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findOrCreateProjectLabels } from '../../../db/queries/labels.ts';
import { issues, labelLinks, labels } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createLabel } from '../../factories/labels.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';

/** A group with a subgroup and a project in the subgroup; the owner is a reporter-or-better everywhere. */
async function tree() {
  const owner = await createUser();
  const root = await createGroup(owner.token);
  const sub = await createGroup(owner.token, { parentId: root.id });
  const project = await createProject(owner.token, { namespaceId: sub.id });
  return { owner, root, sub, project };
}

const labelRows = (where: { projectId?: number; groupId?: number }) =>
  testDb()
    .db.select()
    .from(labels)
    .where(where.projectId !== undefined ? eq(labels.projectId, where.projectId) : eq(labels.groupId, where.groupId!))
    .orderBy(labels.id);

describe('project labels', () => {
  it('creates, reads by id and by title, updates and deletes a label', async () => {
    const { owner, project } = await tree();
    const base = `/projects/${project.id}/labels`;
    const created = await api.post(base, { token: owner.token, body: { name: 'bug fix', color: '#FFAABB', description: 'Bugs & <things>', priority: 3 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'bug fix',
      color: '#FFAABB',
      description: 'Bugs & <things>',
      description_html: '<p dir="auto">Bugs &amp; &lt;things&gt;</p>',
      text_color: '#333333',
      subscribed: false,
      priority: 3,
      is_project_label: true,
    });
    const id = created.body.id;
    expect((await api.get(`${base}/${id}`, { token: owner.token })).body.name).toBe('bug fix');
    expect((await api.get(`${base}/${encodeURIComponent('bug fix')}`, { token: owner.token })).body.id).toBe(id);

    const updated = await api.put(`${base}/${id}`, { token: owner.token, body: { new_name: 'bug', color: 'red', priority: null } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'bug', color: '#FF0000', text_color: '#FFFFFF', priority: null, description: 'Bugs & <things>' });

    const deleted = await api.delete(`${base}/bug`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await api.get(`${base}/${id}`, { token: owner.token })).status).toBe(404);
    expect((await api.get(`${base}/${id}`, { token: owner.token })).body).toEqual({ message: '404 Label Not Found' });
  });

  it('titles with slashes, colons and percent signs are addressed URL-encoded', async () => {
    const { owner, project } = await tree();
    for (const name of ['scope/x', 'devops::create', '100% done', '99999999']) {
      const label = await createLabel(owner.token, 'projects', project.id, { name });
      const res = await api.get(`/projects/${project.id}/labels/${encodeURIComponent(name)}`, { token: owner.token });
      expect(res.status, name).toBe(200);
      expect(res.body.id).toBe(label.id);
    }
  });

  it('lists own and ancestor group labels by title, with pagination headers, search and counts', async () => {
    const { owner, root, sub, project } = await tree();
    await createLabel(owner.token, 'groups', root.id, { name: 'a-root' });
    await createLabel(owner.token, 'groups', sub.id, { name: 'b-sub' });
    await createLabel(owner.token, 'projects', project.id, { name: 'c-project', description: 'findme' });
    const res = await api.get(`/projects/${project.id}/labels`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((l: any) => [l.name, l.is_project_label])).toEqual([
      ['a-root', false],
      ['b-sub', false],
      ['c-project', true],
    ]);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.body[0]).not.toHaveProperty('open_issues_count');
    expect(queryCount(res)).toBeLessThanOrEqual(3);

    const own = await api.get(`/projects/${project.id}/labels`, { token: owner.token, query: { include_ancestor_groups: false } });
    expect(own.body.map((l: any) => l.name)).toEqual(['c-project']);
    const search = await api.get(`/projects/${project.id}/labels`, { token: owner.token, query: { search: 'findm' } });
    expect(search.body.map((l: any) => l.name)).toEqual(['c-project']);
    const paged = await api.get(`/projects/${project.id}/labels`, { token: owner.token, query: { per_page: 2, page: 2 } });
    expect(paged.body.map((l: any) => l.name)).toEqual(['c-project']);
    expect(paged.headers.get('x-total')).toBe('3');

    const counted = await api.get(`/projects/${project.id}/labels`, { token: owner.token, query: { with_counts: true } });
    expect(counted.body[2]).toMatchObject({ name: 'c-project', open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
    expect(queryCount(counted)).toBeLessThanOrEqual(3);
  });

  it('reads a group label through the project; changing it through the project is 404', async () => {
    const { owner, root, project } = await tree();
    const label = await createLabel(owner.token, 'groups', root.id, { name: 'shared' });
    expect((await api.get(`/projects/${project.id}/labels/shared`, { token: owner.token })).body).toMatchObject({
      id: label.id,
      is_project_label: false,
      priority: null,
    });
    expect((await api.get(`/projects/${project.id}/labels/shared`, { token: owner.token, query: { include_ancestor_groups: false } })).status).toBe(404);
    expect((await api.put(`/projects/${project.id}/labels/${label.id}`, { token: owner.token, body: { color: '#000' } })).status).toBe(404);
    expect((await api.delete(`/projects/${project.id}/labels/shared`, { token: owner.token })).status).toBe(404);
  });

  it('400/409 failures leave the labels unchanged', async () => {
    const { owner, root, project } = await tree();
    await createLabel(owner.token, 'groups', root.id, { name: 'from-group' });
    await createLabel(owner.token, 'projects', project.id, { name: 'mine' });
    const before = await labelRows({ projectId: project.id });
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{}, 400, { error: 'name is missing, color is missing' }],
      [{ name: 'x' }, 400, { error: 'color is missing' }],
      [{ name: 'x', color: 'notacolor' }, 400, { message: { color: ['must be a valid color code'] } }],
      [{ name: 'x', color: '#12345' }, 400, { message: { color: ['must be a valid color code'] } }],
      [{ name: '', color: '#FFFFFF' }, 400, { message: { title: ["can't be blank", 'is invalid'] } }],
      [{ name: '   ', color: '#FFFFFF' }, 400, { message: { title: ["can't be blank", 'is invalid'] } }],
      [{ name: 'a,b', color: '#FFFFFF' }, 400, { message: { title: ['is invalid'] } }],
      [{ name: 'x'.repeat(256), color: '#FFFFFF' }, 400, { message: { title: ['is too long (maximum is 255 characters)'] } }],
      [{ name: 'nul\u0000byte', color: '#FFFFFF' }, 400, { error: 'name is invalid' }],
      [{ name: 'x', color: '#FFFFFF', priority: 'high' }, 400, { error: 'priority is invalid' }],
      [{ name: 'mine', color: '#FFFFFF' }, 409, { message: 'Label already exists' }],
      [{ name: 'from-group', color: '#FFFFFF' }, 409, { message: 'Label already exists' }],
      [{ name: 'mine', color: 'bad' }, 409, { message: 'Label already exists' }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await api.post(`/projects/${project.id}/labels`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body).toEqual(expected);
    }
    expect(await labelRows({ projectId: project.id })).toEqual(before);
  });

  it('update failures: nothing to change, taken titles, bad colours', async () => {
    const { owner, root, project } = await tree();
    await createLabel(owner.token, 'groups', root.id, { name: 'group-title' });
    await createLabel(owner.token, 'projects', project.id, { name: 'one' });
    await createLabel(owner.token, 'projects', project.id, { name: 'two' });
    const put = (body: Record<string, unknown>) => api.put(`/projects/${project.id}/labels/one`, { token: owner.token, body });
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{}, 400, { error: 'new_name, color, description, priority are missing, at least one parameter must be provided' }],
      [{ new_name: 'two' }, 400, { message: { title: ['has already been taken'] } }],
      [{ new_name: 'group-title' }, 400, { message: { title: [`already exists at group level for ${root.name}. Please choose another one.`] } }],
      [{ color: 'nope' }, 400, { message: { color: ['must be a valid color code'] } }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual(expected);
    }
    expect((await api.get(`/projects/${project.id}/labels/one`, { token: owner.token })).body.color).toBe('#428BCA');
    expect((await api.put(`/projects/${project.id}/labels/missing`, { token: owner.token, body: { color: '#fff' } })).body).toEqual({
      message: '404 Label Not Found',
    });
  });

  it('query budgets: create 3, update 4, delete 4 (auth included)', async () => {
    const { owner, project } = await tree();
    const created = await api.post(`/projects/${project.id}/labels`, { token: owner.token, body: { name: unique('l'), color: '#fff' } });
    const updated = await api.put(`/projects/${project.id}/labels/${created.body.id}`, { token: owner.token, body: { new_name: unique('l') } });
    const read = await api.get(`/projects/${project.id}/labels/${created.body.id}`, { token: owner.token });
    const deleted = await api.delete(`/projects/${project.id}/labels/${created.body.id}`, { token: owner.token });
    const counts = { create: queryCount(created), update: queryCount(updated), get: queryCount(read), delete: queryCount(deleted) };
    console.log(`labels: ${JSON.stringify(counts)} queries`);
    expect(counts.create).toBeLessThanOrEqual(4);
    expect(counts.update).toBeLessThanOrEqual(4);
    expect(counts.get).toBeLessThanOrEqual(3);
    expect(counts.delete).toBeLessThanOrEqual(4);
  });
});

describe('concurrency', () => {
  it('parallel creates of one title: one 201, the others 409, one row', async () => {
    const { owner, project } = await tree();
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => api.post(`/projects/${project.id}/labels`, { token: owner.token, body: { name: 'race', color: '#fff' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body)).toEqual(Array(3).fill({ message: 'Label already exists' }));
    expect((await labelRows({ projectId: project.id })).length).toBe(1);
  });
});

describe('with_counts', () => {
  it('counts open and closed issues with the label (confidential ones only for those who may see them), in the listing query', async () => {
    const { owner, root, project } = await tree();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const own = await createLabel(owner.token, 'projects', project.id, { name: 'a-own' });
    const shared = await createLabel(owner.token, 'groups', root.id, { name: 'b-shared' });
    const { db } = testDb();
    const made = await db
      .insert(issues)
      .values([
        { projectId: project.id, iid: 1, title: 'open', state: 'opened' },
        { projectId: project.id, iid: 2, title: 'closed', state: 'closed' },
        { projectId: project.id, iid: 3, title: 'secret', state: 'opened', confidential: true },
      ])
      .returning();
    await db
      .insert(labelLinks)
      .values([
        ...made.map((i) => ({ labelId: own.id, targetType: 'Issue' as const, targetId: i.id })),
        { labelId: shared.id, targetType: 'Issue' as const, targetId: made[1]!.id },
      ]);
    // A token's first use also records its last use; budgets are for the steady state.
    await api.get('/version', { token: guest.token });
    const counts = async (token: string) => {
      const res = await api.get(`/projects/${project.id}/labels`, { token, query: { with_counts: 'true' } });
      expect(queryCount(res)).toBeLessThanOrEqual(3);
      return res.body.map((l: any) => [l.name, l.open_issues_count, l.closed_issues_count]);
    };
    expect(await counts(owner.token)).toEqual([
      ['a-own', 2, 1],
      ['b-shared', 0, 1],
    ]);
    expect(await counts(guest.token)).toEqual([
      ['a-own', 1, 1],
      ['b-shared', 0, 1],
    ]);
    const group = await api.get(`/groups/${root.id}/labels`, { token: owner.token, query: { with_counts: true } });
    expect(group.body.map((l: any) => [l.name, l.open_issues_count, l.closed_issues_count])).toEqual([['b-shared', 0, 1]]);
  });
});

describe('group labels', () => {
  it('CRUD, with ancestors in listings and the GroupLabel entity', async () => {
    const { owner, root, sub } = await tree();
    const rootLabel = await createLabel(owner.token, 'groups', root.id, { name: 'root-label', color: '#0000FF' });
    const created = await api.post(`/groups/${sub.id}/labels`, { token: owner.token, body: { name: 'sub-label', color: '#00ff00', description: 'd' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'sub-label',
      color: '#00ff00',
      description: 'd',
      description_html: '<p dir="auto">d</p>',
      text_color: '#FFFFFF',
      subscribed: false,
    });
    expect((await api.get(`/groups/${sub.id}/labels`, { token: owner.token })).body.map((l: any) => l.name)).toEqual(['root-label', 'sub-label']);
    expect(
      (await api.get(`/groups/${sub.id}/labels`, { token: owner.token, query: { include_ancestor_groups: 'false' } })).body.map((l: any) => l.name),
    ).toEqual(['sub-label']);
    expect((await api.get(`/groups/${sub.id}/labels/${rootLabel.id}`, { token: owner.token })).body.name).toBe('root-label');
    expect((await api.post(`/groups/${sub.id}/labels`, { token: owner.token, body: { name: 'root-label', color: '#fff' } })).status).toBe(409);
    const updated = await api.put(`/groups/${sub.id}/labels/sub-label`, { token: owner.token, body: { new_name: 'renamed', description: null } });
    expect(updated.body).toMatchObject({ name: 'renamed', description: null, description_html: '' });
    expect((await api.put(`/groups/${sub.id}/labels/renamed`, { token: owner.token, body: {} })).body).toEqual({
      error: 'new_name, color, description are missing, at least one parameter must be provided',
    });
    expect((await api.put(`/groups/${sub.id}/labels/${rootLabel.id}`, { token: owner.token, body: { color: '#000' } })).status).toBe(404);
    expect((await api.delete(`/groups/${sub.id}/labels/renamed`, { token: owner.token })).status).toBe(204);
    expect(await labelRows({ groupId: sub.id })).toEqual([]);
  });
});

describe('findOrCreateProjectLabels', () => {
  it('finds project and ancestor labels by exact title and creates the missing ones (default colour)', async () => {
    const { owner, root, project } = await tree();
    const groupLabel = await createLabel(owner.token, 'groups', root.id, { name: 'Shared' });
    const projectLabel = await createLabel(owner.token, 'projects', project.id, { name: 'Own' });
    const found = await findOrCreateProjectLabels(testDb().db, project.id, ['new one', 'Shared', 'Own', 'Own', 'shared']);
    expect(found.map((l) => [l.title, l.projectId, l.color])).toEqual([
      ['new one', project.id, '#6699cc'],
      ['Shared', null, '#428BCA'],
      ['Own', project.id, '#428BCA'],
      ['shared', project.id, '#6699cc'],
    ]);
    expect(found[1]!.id).toBe(groupLabel.id);
    expect(found[2]!.id).toBe(projectLabel.id);
    // Again (and concurrently): the same rows, nothing new.
    const again = await Promise.all([1, 2, 3].map(() => findOrCreateProjectLabels(testDb().db, project.id, ['new one', 'shared', 'third'])));
    expect(new Set(again.map((list) => list.map((l) => l.id).join(','))).size).toBe(1);
    expect((await labelRows({ projectId: project.id })).map((l) => l.title).sort()).toEqual(['Own', 'new one', 'shared', 'third']);
  });
});

describe('roles', () => {
  it('a reporter manages labels; a guest reads them but gets 403 on writes', async () => {
    const { owner, project } = await tree();
    const reporter = await createUser();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    expect((await api.post(`/projects/${project.id}/labels`, { token: reporter.token, body: { name: 'r', color: '#fff' } })).status).toBe(201);
    expect((await api.get(`/projects/${project.id}/labels`, { token: guest.token })).status).toBe(200);
    expect((await api.post(`/projects/${project.id}/labels`, { token: guest.token, body: { name: 'g', color: '#fff' } })).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api.put(`/projects/${project.id}/labels/r`, { token: guest.token, body: { color: '#000' } })).status).toBe(403);
    expect((await api.delete(`/projects/${project.id}/labels/r`, { token: guest.token })).status).toBe(403);
  });
});
