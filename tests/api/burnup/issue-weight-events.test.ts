// Issue weight (Premium) on the issues API, and the resource events every issue change records with it.
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issues, resourceMilestoneEvents, resourceStateEvents, resourceWeightEvents } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { PREMIUM } from '../../factories/iterations.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const db = () => testDb().db;
const events = async (issueId: number) => ({
  state: (await db().select().from(resourceStateEvents).where(eq(resourceStateEvents.issueId, issueId)).orderBy(asc(resourceStateEvents.id))).map(
    (e) => e.state,
  ),
  weight: (await db().select().from(resourceWeightEvents).where(eq(resourceWeightEvents.issueId, issueId)).orderBy(asc(resourceWeightEvents.id))).map(
    (e) => e.weight,
  ),
  milestone: (
    await db().select().from(resourceMilestoneEvents).where(eq(resourceMilestoneEvents.issueId, issueId)).orderBy(asc(resourceMilestoneEvents.id))
  ).map((e) => [e.action, e.milestoneId]),
});

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token);
  return { owner, project };
}

describe('issue weight', () => {
  it('is set, shown and changed on premium; neither shown nor stored on free', async () => {
    const { owner, project } = await setup();
    const created = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'W', weight: 3 } });
    expect(created.status).toBe(201);
    expect(created.body.weight).toBe(3);
    // EE's IssueBasic: right after task_completion_status.
    const keys = Object.keys(created.body);
    expect(keys[keys.indexOf('task_completion_status') + 1]).toBe('weight');
    const updated = await api.put(`/projects/${project.id}/issues/${created.body.iid}`, { token: owner.token, env: PREMIUM, body: { weight: 5 } });
    expect(updated.status).toBe(200);
    expect(updated.body.weight).toBe(5);
    const cleared = await api.put(`/projects/${project.id}/issues/${created.body.iid}`, { token: owner.token, env: PREMIUM, body: { weight: '' } });
    expect(cleared.body.weight).toBeNull();

    const free = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'F', weight: 4 } });
    expect(free.status).toBe(201);
    expect(free.body).not.toHaveProperty('weight');
    const [row] = await db().select().from(issues).where(eq(issues.id, free.body.id));
    expect(row!.weight).toBeNull();
    const onlyWeight = await api.put(`/projects/${project.id}/issues/${free.body.iid}`, { token: owner.token, body: { weight: 4 } });
    expect(onlyWeight.status).toBe(400);
    expect(onlyWeight.body.error).toMatch(/^assignee_id, .*title are missing, at least one parameter must be provided$/);
    const premiumEmpty = await api.put(`/projects/${project.id}/issues/${free.body.iid}`, { token: owner.token, env: PREMIUM, body: {} });
    expect(premiumEmpty.body.error).toMatch(/, weight are missing, at least one parameter must be provided$/);
  });

  it('rejects bad weights and writes nothing', async () => {
    const { owner, project } = await setup();
    const before = await db().select().from(issues).where(eq(issues.projectId, project.id));
    for (const [weight, status, body] of [
      [-1, 400, { message: { weight: ['must be greater than or equal to 0'] } }],
      ['heavy', 400, { error: 'weight is invalid' }],
      [1.5, 400, { error: 'weight is invalid' }],
    ] as const) {
      const res = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'Bad', weight } });
      expect({ weight, status: res.status, body: res.body }).toEqual({ weight, status, body });
    }
    expect(await db().select().from(issues).where(eq(issues.projectId, project.id))).toEqual(before);
  });

  it('is ignored from who may not admin issues (a guest)', async () => {
    const { owner, project } = await setup();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const res = await api.post(`/projects/${project.id}/issues`, { token: guest.token, env: PREMIUM, body: { title: 'G', weight: 2 } });
    expect(res.status).toBe(201);
    expect(res.body.weight).toBeNull();
  });
});

describe('resource events', () => {
  it('records milestone, weight and state changes with the change itself', async () => {
    const { owner, project } = await setup();
    const m1 = await createMilestone(owner.token, 'projects', project.id);
    const m2 = await createMilestone(owner.token, 'projects', project.id);
    const res = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'E', weight: 2, milestone_id: m1.id } });
    const { id, iid } = res.body;
    expect(await events(id)).toEqual({ state: [], weight: [2], milestone: [['add', m1.id]] });
    const put = (body: Record<string, unknown>) => api.put(`/projects/${project.id}/issues/${iid}`, { token: owner.token, env: PREMIUM, body });
    await put({ milestone_id: m2.id, weight: 3 });
    await put({ state_event: 'close' });
    await put({ state_event: 'close' });
    await put({ state_event: 'reopen', milestone_id: 0 });
    await put({ title: 'Unrelated', weight: 3 });
    await put({ weight: '' });
    expect(await events(id)).toEqual({
      state: ['closed', 'reopened'],
      weight: [2, 3, null],
      milestone: [
        ['add', m1.id],
        ['add', m2.id],
        ['remove', m2.id],
      ],
    });
  });

  it('records nothing for a plain issue, and no weight on free', async () => {
    const { owner, project } = await setup();
    const plain = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'P', weight: 1 } });
    await api.put(`/projects/${project.id}/issues/${plain.body.iid}`, { token: owner.token, body: { weight: 2, title: 'Q' } });
    expect(await events(plain.body.id)).toEqual({ state: [], weight: [], milestone: [] });
  });
});
