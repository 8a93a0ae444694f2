import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { epicIssues } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { createEpic, PREMIUM } from './support.ts';

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  const epic = await createEpic(owner.token, group.id);
  return { owner, group, project, epic };
}

const base = (groupId: number, iid: number) => `/groups/${groupId}/epics/${iid}/issues`;

describe('epic issues', () => {
  it('adds, lists, moves and removes issues', async () => {
    const { owner, group, project, epic } = await setup();
    const [i1, i2, i3] = [await createIssue(owner.token, project.id), await createIssue(owner.token, project.id), await createIssue(owner.token, project.id)];
    const added = await api.post(`${base(group.id, epic.iid)}/${i1.id}`, { token: owner.token, env: PREMIUM });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      relative_position: expect.any(Number),
      epic: {
        id: epic.id,
        iid: epic.iid,
        title: epic.title,
        description: null,
        author: expect.objectContaining({ id: owner.user.id }),
        start_date: null,
        end_date: null,
      },
      issue: expect.objectContaining({ id: i1.id, iid: i1.iid, project_id: project.id }),
    });
    const l2 = (await api.post(`${base(group.id, epic.iid)}/${i2.id}`, { token: owner.token, env: PREMIUM })).body.id;
    const l3 = (await api.post(`${base(group.id, epic.iid)}/${i3.id}`, { token: owner.token, env: PREMIUM })).body.id;
    const list = await api.get(base(group.id, epic.iid), { token: owner.token, env: PREMIUM });
    expect(list.status).toBe(200);
    expect(list.body.map((i: { id: number }) => i.id)).toEqual([i1.id, i2.id, i3.id]);
    expect(list.headers.get('x-total')).toBe('3');
    const page2 = await api.get(base(group.id, epic.iid), { token: owner.token, env: PREMIUM, query: { per_page: 2, page: 2 } });
    expect(page2.body.map((i: { id: number }) => i.id)).toEqual([i3.id]);
    expect([page2.headers.get('x-page'), page2.headers.get('x-per-page'), page2.headers.get('x-total-pages')]).toEqual(['2', '2', '2']);
    expect(list.body[0]).toMatchObject({ epic_issue_id: added.body.id, relative_position: expect.any(Number), title: i1.title });

    const again = await api.post(`${base(group.id, epic.iid)}/${i1.id}`, { token: owner.token, env: PREMIUM });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Issue(s) already assigned' });

    // move i3 between i1 and i2: move_before_id is the link that ends up before it.
    const moved = await api.put(`${base(group.id, epic.iid)}/${l3}`, {
      token: owner.token,
      env: PREMIUM,
      body: { move_before_id: added.body.id, move_after_id: l2 },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.map((i: { id: number }) => i.id)).toEqual([i1.id, i3.id, i2.id]);
    const badMove = await api.put(`${base(group.id, epic.iid)}/${l3}`, { token: owner.token, env: PREMIUM, body: { move_before_id: 2147483000 } });
    expect(badMove.status).toBe(400);
    expect(badMove.body).toEqual({ message: { error: 'Issue could not be moved!' } });

    const removed = await api.delete(`${base(group.id, epic.iid)}/${l2}`, { token: owner.token, env: PREMIUM });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: l2, issue: expect.objectContaining({ id: i2.id }) });
    expect((await api.delete(`${base(group.id, epic.iid)}/${l2}`, { token: owner.token, env: PREMIUM })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(base(group.id, epic.iid), { token: owner.token, env: PREMIUM })).body).toHaveLength(2);
  });

  it('moves an issue from another epic (one epic per issue)', async () => {
    const { owner, group, project, epic } = await setup();
    const other = await createEpic(owner.token, group.id);
    const issue = await createIssue(owner.token, project.id);
    await api.post(`${base(group.id, epic.iid)}/${issue.id}`, { token: owner.token, env: PREMIUM });
    const res = await api.post(`${base(group.id, other.iid)}/${issue.id}`, { token: owner.token, env: PREMIUM });
    expect(res.status).toBe(201);
    const rows = await testDb().db.select().from(epicIssues).where(eq(epicIssues.issueId, issue.id));
    expect(rows).toEqual([expect.objectContaining({ epicId: other.id })]);
  });

  it('refuses issues outside the group, missing ones and non-confidential ones for confidential epics', async () => {
    const { owner, group, project } = await setup();
    const outside = await createProject(owner.token);
    const stray = await createIssue(owner.token, outside.id);
    const confidential = await createEpic(owner.token, group.id, { confidential: true });
    const plain = await createIssue(owner.token, project.id);
    const cases: Array<[string, number, unknown]> = [
      [`${base(group.id, confidential.iid)}/${stray.id}`, 404, { message: '404 Not found' }],
      [`${base(group.id, confidential.iid)}/2147483000`, 404, { message: '404 Not found' }],
      [
        `${base(group.id, confidential.iid)}/${plain.id}`,
        422,
        { message: `#${plain.iid} cannot be added: Cannot set confidential epic for a non-confidential issue` },
      ],
    ];
    for (const [path, status, body] of cases) {
      const res = await api.post(path, { token: owner.token, env: PREMIUM });
      expect(res.status, path).toBe(status);
      expect(res.body).toEqual(body);
    }
    expect(await testDb().db.select().from(epicIssues).where(eq(epicIssues.epicId, confidential.id))).toEqual([]);
  });

  it('inherits dates from the milestones of its issues unless fixed', async () => {
    const { owner, group, project, epic } = await setup();
    const m1 = await createMilestone(owner.token, 'groups', group.id, { start_date: '2020-01-10', due_date: '2020-02-01' });
    const m2 = await createMilestone(owner.token, 'projects', project.id, { start_date: '2020-01-05', due_date: '2020-01-20' });
    for (const m of [m1, m2]) {
      const issue = await createIssue(owner.token, project.id, { milestone_id: m.id });
      await api.post(`${base(group.id, epic.iid)}/${issue.id}`, { token: owner.token, env: PREMIUM });
    }
    const res = await api.get(`/groups/${group.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM });
    expect(res.body).toMatchObject({
      start_date: '2020-01-05',
      start_date_is_fixed: false,
      start_date_from_milestones: '2020-01-05',
      due_date: '2020-02-01',
      end_date: '2020-02-01',
      due_date_from_inherited_source: '2020-02-01',
    });
    const fixed = await api.put(`/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      env: PREMIUM,
      body: { start_date_is_fixed: true, start_date_fixed: '2019-12-01' },
    });
    expect(fixed.body).toMatchObject({ start_date: '2019-12-01', start_date_fixed: '2019-12-01', start_date_from_milestones: '2020-01-05' });
  });

  it('requires a reporter to change and a signed-in reader to list', async () => {
    const { owner, group, project, epic } = await setup();
    const guest = await createUser();
    await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
    const issue = await createIssue(owner.token, project.id);
    const res = await api.post(`${base(group.id, epic.iid)}/${issue.id}`, { token: guest.token, env: PREMIUM });
    expect(res.status).toBe(403);
    expect((await api.get(base(group.id, epic.iid), { token: guest.token, env: PREMIUM })).status).toBe(200);
    expect((await api.get(base(group.id, epic.iid), { env: PREMIUM })).status).toBe(401);
  });
});
