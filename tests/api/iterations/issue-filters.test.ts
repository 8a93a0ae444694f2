// Issue lists filtered by iteration (GitLab 13.6 EE): REST iteration_id (id, None, Any) / iteration_title, mutually
// exclusive; GraphQL Project.issues(iterationId:). IssuesFinder's by_iteration has no license check, so a free
// instance filters too; the REST Issue entity has no `iteration` in 13.6.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issues } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createIteration, day, gqlAs, PREMIUM } from '../../factories/iterations.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

async function fixture() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  const sprintA = await createIteration(owner.token, group.full_path, { title: 'Sprint A', startDate: day(1), dueDate: day(5) });
  const sprintB = await createIteration(owner.token, group.full_path, { title: 'Sprint B', startDate: day(6), dueDate: day(10) });
  const idOf = (gid: string) => Number(gid.split('/').pop());
  const inA = await createIssue(owner.token, project.id, { title: 'in A' });
  const inB = await createIssue(owner.token, project.id, { title: 'in B' });
  const none = await createIssue(owner.token, project.id, { title: 'no iteration' });
  await testDb()
    .db.update(issues)
    .set({ sprintId: idOf(sprintA.id) })
    .where(eq(issues.id, inA.id));
  await testDb()
    .db.update(issues)
    .set({ sprintId: idOf(sprintB.id) })
    .where(eq(issues.id, inB.id));
  return { owner, group, project, sprintA: { gid: sprintA.id, id: idOf(sprintA.id) }, sprintB: { gid: sprintB.id, id: idOf(sprintB.id) } };
}

const titles = (body: Array<{ title: string }>) => body.map((i) => i.title).sort();

describe('REST issue lists: iteration_id and iteration_title', () => {
  it('filters the project, group and instance lists by id, None, Any and title', async () => {
    const f = await fixture();
    for (const path of [`/projects/${f.project.id}/issues`, `/groups/${f.group.id}/issues`, '/issues']) {
      const list = async (query: Record<string, string | number>) => {
        // The instance list stays on the owner's own issues: other files' public issues share the database.
        const res = await api.get(path, { token: f.owner.token, env: PREMIUM, query: { scope: path === '/issues' ? 'created_by_me' : 'all', ...query } });
        expect(res.status).toBe(200);
        return titles(res.body);
      };
      expect(await list({ iteration_id: f.sprintA.id })).toEqual(['in A']);
      expect(await list({ iteration_id: 'None' })).toEqual(['no iteration']);
      expect(await list({ iteration_id: 'any' })).toEqual(['in A', 'in B']);
      expect(await list({ iteration_title: 'Sprint B' })).toEqual(['in B']);
      expect(await list({ iteration_title: 'sprint b' })).toEqual([]);
      expect(await list({ iteration_id: 999_999 })).toEqual([]);
      expect(await list({})).toEqual(['in A', 'in B', 'no iteration']);
    }
  });

  it('filters on a free instance too (the finder has no license check), and the entity shows no iteration', async () => {
    const f = await fixture();
    const res = await api.get(`/projects/${f.project.id}/issues`, { token: f.owner.token, query: { iteration_id: f.sprintB.id } });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['in B']);
    const premium = await api.get(`/projects/${f.project.id}/issues`, { token: f.owner.token, env: PREMIUM, query: { iteration_id: f.sprintB.id } });
    expect(premium.body[0]).not.toHaveProperty('iteration');
  });

  it('rejects both parameters together and a bad id with 400', async () => {
    const f = await fixture();
    const both = await api.get(`/projects/${f.project.id}/issues`, {
      token: f.owner.token,
      env: PREMIUM,
      query: { iteration_id: f.sprintA.id, iteration_title: 'Sprint A' },
    });
    expect({ status: both.status, body: both.body }).toEqual({ status: 400, body: { error: 'iteration_id, iteration_title are mutually exclusive' } });
    const bad = await api.get(`/projects/${f.project.id}/issues`, { token: f.owner.token, env: PREMIUM, query: { iteration_id: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^iteration_id /);
  });
});

describe('GraphQL Project.issues(iterationId:)', () => {
  const QUERY = `query($path: ID!, $ids: [ID]) { project(fullPath: $path) { issues(iterationId: $ids) { nodes { title iteration { title } } } } }`;

  it('takes global or plain iteration ids (any of them matches), unknown ones match nothing', async () => {
    const f = await fixture();
    const run = async (ids: string[], tier: 'free' | 'premium' = 'premium') => {
      const res = await gqlAs(f.owner.token, QUERY, { path: f.project.path_with_namespace, ids }, tier);
      expect(res.body.errors).toBeUndefined();
      return res.body.data.project.issues.nodes as Array<{ title: string; iteration: { title: string } | null }>;
    };
    expect(await run([f.sprintA.gid])).toEqual([{ title: 'in A', iteration: { title: 'Sprint A' } }]);
    expect(titles(await run([String(f.sprintA.id), f.sprintB.gid]))).toEqual(['in A', 'in B']);
    expect(await run(['gid://gitlab/Milestone/1'])).toEqual([]);
    // Free: the filter applies, Issue.iteration is hidden.
    expect(await run([f.sprintB.gid], 'free')).toEqual([{ title: 'in B', iteration: null }]);
  });
});
