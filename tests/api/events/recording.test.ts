// The events the existing actions record (project created, member joined/left/expired), read back through the API.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { rows } from '../../../db/queries/lib/raw.ts';
import { expireMemberships } from '../../../functions/housekeeping/service.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const eventsOf = (projectId: number) =>
  rows<{ action: number; author_id: number }>(testDb().db, sql`SELECT action, author_id FROM events WHERE project_id = ${projectId} ORDER BY id`);

describe('recorded events', () => {
  it('project created: action_name "created", no target, the full entity', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token);
    const res = await api.get(`/projects/${p.id}/events`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        title: null,
        project_id: p.id,
        action_name: 'created',
        target_id: null,
        target_iid: null,
        target_type: null,
        author_id: user.id,
        target_title: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        author: { id: user.id, name: user.name, username: user.username, state: 'active', avatar_url: null, web_url: `${TEST_PUBLIC_URL}/${user.username}` },
        author_username: user.username,
        data: null,
      },
    ]);
  });

  it('a fork records created for the forking user', async () => {
    const owner = await createUser();
    const forker = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const fork = await api.post(`/projects/${p.id}/fork`, { token: forker.token });
    expect(fork.status).toBe(201);
    const res = await api.get(`/projects/${fork.body.id}/events`, { token: forker.token });
    expect(res.body.map((e: any) => [e.action_name, e.author_id])).toEqual([['created', forker.user.id]]);
  });

  it('member joined and left (self-removal and removal by a maintainer), authored by the member', async () => {
    const owner = await createUser();
    const a = await createUser();
    const b = await createUser();
    const p = await createProject(owner.token);
    await addMember(owner.token, 'projects', p.id, a.user.id, 30);
    await addMember(owner.token, 'projects', p.id, b.user.id, 30);
    expect((await api.delete(`/projects/${p.id}/members/${a.user.id}`, { token: a.token })).status).toBe(204);
    expect((await api.delete(`/projects/${p.id}/members/${b.user.id}`, { token: owner.token })).status).toBe(204);
    const res = await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { sort: 'asc' } });
    expect(res.body.map((e: any) => [e.action_name, e.author_username])).toEqual([
      ['created', owner.user.username],
      ['joined', a.user.username],
      ['joined', b.user.username],
      ['left', a.user.username],
      ['left', b.user.username],
    ]);
  });

  it('a failed add (409 duplicate) writes no event; group memberships record nothing', async () => {
    const owner = await createUser();
    const a = await createUser();
    const p = await createProject(owner.token);
    await addMember(owner.token, 'projects', p.id, a.user.id, 30);
    const before = await eventsOf(p.id);
    const dup = await api.post(`/projects/${p.id}/members`, { token: owner.token, body: { user_id: a.user.id, access_level: 30 } });
    expect(dup.status).toBe(409);
    expect(await eventsOf(p.id)).toEqual(before);
    const g = await createGroup(owner.token);
    await addMember(owner.token, 'groups', g.id, a.user.id, 30);
    const [n] = await rows<{ n: unknown }>(testDb().db, sql`SELECT count(*) AS n FROM events WHERE group_id = ${g.id}`);
    expect(Number(n!.n)).toBe(0);
  });

  it('the housekeeping job records "removed due to membership expiration from" per expired project membership', async () => {
    const owner = await createUser();
    const a = await createUser();
    const p = await createProject(owner.token);
    await addMember(owner.token, 'projects', p.id, a.user.id, 30);
    await testDb().db.execute(
      sql`UPDATE members SET expires_at = current_date - 1 WHERE source_type = 'Project' AND source_id = ${p.id} AND user_id = ${a.user.id}`,
    );
    // The cronjob:remove_expired_members job's work.
    expect(await expireMemberships({ ctx: testDb() })).toBeGreaterThanOrEqual(1);
    const res = await api.get(`/users/${a.user.id}/events`, { token: owner.token });
    expect(res.body.map((e: any) => [e.action_name, e.project_id])).toEqual([
      ['removed due to membership expiration from', p.id],
      ['joined', p.id],
    ]);
  });
});
