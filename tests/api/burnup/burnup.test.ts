// Milestone.report / Iteration.report (GitLab 13.6 TimeboxReportService): the burnup replayed from resource events
// at controlled dates, not from the issues' current state.
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { iterations, resourceIterationEvents, resourceMilestoneEvents, resourceStateEvents, resourceWeightEvents } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { day, gqlAs, PREMIUM } from '../../factories/iterations.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const db = () => testDb().db;
const REPORT = `report { burnupTimeSeries { date scopeCount scopeWeight completedCount completedWeight } stats { complete { count weight } incomplete { count weight } total { count weight } } }`;
const MILESTONE_REPORT = `query($path: ID!) { project(fullPath: $path) { milestones { nodes { title ${REPORT} } } } }`;

/** Moves every event of these issues recorded today to `offset` days from today (their order is kept). */
async function shiftEvents(issueIds: number[], offset: number) {
  for (const table of [resourceMilestoneEvents, resourceIterationEvents, resourceStateEvents, resourceWeightEvents]) {
    await db()
      .update(table)
      .set({ createdAt: sql`${table.createdAt} + make_interval(days => ${offset})` })
      .where(sql`${inArray(table.issueId, issueIds)} AND ${table.createdAt} > now() - interval '1 hour'`);
  }
}

describe('Milestone.report', () => {
  it('replays scope and completion per day from the recorded events', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const milestone = await createMilestone(owner.token, 'projects', project.id, { title: 'M', start_date: day(-10), due_date: day(-1) });
    const other = await createMilestone(owner.token, 'projects', project.id, { title: 'Other', start_date: day(-10), due_date: day(-1) });
    const put = (iid: number, body: Record<string, unknown>) => api.put(`/projects/${project.id}/issues/${iid}`, { token: owner.token, env: PREMIUM, body });

    // Day -12 (before the start: counted on the start day): A (weight 2) and B (weight 3) join.
    const a = (
      await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'A', milestone_id: milestone.id, weight: 2 } })
    ).body;
    const b = await api.post(`/projects/${project.id}/issues`, {
      token: owner.token,
      env: PREMIUM,
      body: { title: 'B', milestone_id: milestone.id, weight: 3 },
    });
    await shiftEvents([a.id, b.body.id], -12);
    // Day -8: A is closed.
    await put(a.iid, { state_event: 'close' });
    await shiftEvents([a.id], -8);
    // Day -5: B's weight becomes 5, C (weight 1) joins closed.
    await put(b.body.iid, { weight: 5 });
    const c = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'C', weight: 1 } });
    await put(c.body.iid, { state_event: 'close' });
    await put(c.body.iid, { milestone_id: milestone.id });
    await shiftEvents([b.body.id, c.body.id], -5);
    // Day -3: A reopens, B moves to another milestone.
    await put(a.iid, { state_event: 'reopen' });
    await put(b.body.iid, { milestone_id: other.id });
    await shiftEvents([a.id, b.body.id], -3);
    // Today (after the due date): not in the chart.
    await put(a.iid, { state_event: 'close' });

    const res = await gqlAs(owner.token, MILESTONE_REPORT, { path: project.path_with_namespace });
    expect(res.body.errors).toBeUndefined();
    const report = res.body.data.project.milestones.nodes.find((n: { title: string }) => n.title === 'M').report;
    expect(report).toEqual({
      burnupTimeSeries: [
        // The weights arrive with separate events on the same day as the adds.
        { date: day(-10), scopeCount: 2, scopeWeight: 5, completedCount: 0, completedWeight: 0 },
        { date: day(-8), scopeCount: 2, scopeWeight: 5, completedCount: 1, completedWeight: 2 },
        { date: day(-5), scopeCount: 3, scopeWeight: 8, completedCount: 2, completedWeight: 3 },
        { date: day(-3), scopeCount: 2, scopeWeight: 3, completedCount: 1, completedWeight: 1 },
      ],
      stats: { complete: { count: 1, weight: 1 }, incomplete: { count: 1, weight: 2 }, total: { count: 2, weight: 3 } },
    });
  });

  it("is GitLab's top-level error without the license or without dates; empty without events", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    await createMilestone(owner.token, 'projects', project.id, { title: 'Dated', start_date: day(-3), due_date: day(3) });
    const unlicensed = await gqlAs(owner.token, MILESTONE_REPORT, { path: project.path_with_namespace }, 'free');
    expect(unlicensed.body.errors.map((e: { message: string }) => e.message)).toEqual(['Milestone does not support burnup charts']);
    const empty = await gqlAs(owner.token, MILESTONE_REPORT, { path: project.path_with_namespace });
    expect(empty.body.data.project.milestones.nodes[0].report).toEqual({ burnupTimeSeries: [], stats: null });
    await createMilestone(owner.token, 'projects', project.id, { title: 'Undated' });
    const undated = await gqlAs(owner.token, MILESTONE_REPORT, { path: project.path_with_namespace });
    expect(undated.body.errors.map((e: { message: string }) => e.message)).toEqual(['Milestone must have a start and due date']);
  });
});

describe('Iteration.report', () => {
  it('replays iteration events: moves out, closes and weights', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    const [sprint, next] = await db()
      .insert(iterations)
      .values([
        { groupId: group.id, iid: 1, title: 'S1', startDate: day(-6), dueDate: day(-1) },
        { groupId: group.id, iid: 2, title: 'S2', startDate: day(0), dueDate: day(6) },
      ])
      .returning();
    const a = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'A', weight: 4 } });
    const b = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'B' } });
    const at = (offset: number) => sql`now() + make_interval(days => ${offset})`;
    await db()
      .insert(resourceWeightEvents)
      .values({ issueId: a.body.id, weight: 4, createdAt: at(-7) });
    await db()
      .update(resourceWeightEvents)
      .set({ createdAt: at(-7) })
      .where(eq(resourceWeightEvents.issueId, a.body.id));
    await db()
      .insert(resourceIterationEvents)
      .values([
        { issueId: a.body.id, iterationId: sprint!.id, action: 'add', createdAt: at(-6) },
        { issueId: b.body.id, iterationId: sprint!.id, action: 'add', createdAt: at(-5) },
        { issueId: b.body.id, iterationId: next!.id, action: 'add', createdAt: at(-2) },
      ]);
    await db()
      .insert(resourceStateEvents)
      .values({ issueId: a.body.id, state: 'closed', createdAt: at(-4) });
    const res = await gqlAs(owner.token, `query($path: ID!) { group(fullPath: $path) { iterations(title: "S1") { nodes { ${REPORT} } } } }`, {
      path: group.full_path,
    });
    expect(res.body.data.group.iterations.nodes[0].report).toEqual({
      burnupTimeSeries: [
        { date: day(-6), scopeCount: 1, scopeWeight: 4, completedCount: 0, completedWeight: 0 },
        { date: day(-5), scopeCount: 2, scopeWeight: 4, completedCount: 0, completedWeight: 0 },
        { date: day(-4), scopeCount: 2, scopeWeight: 4, completedCount: 1, completedWeight: 4 },
        { date: day(-2), scopeCount: 1, scopeWeight: 4, completedCount: 1, completedWeight: 4 },
      ],
      stats: { complete: { count: 1, weight: 4 }, incomplete: { count: 0, weight: 0 }, total: { count: 1, weight: 4 } },
    });
  });
});
