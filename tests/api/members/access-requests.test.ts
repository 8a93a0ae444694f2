// Access requests (GitLab 13.6's /projects/:id/access_requests and /groups/:id/access_requests): someone without a
// role asks, the source's member administrators list, approve (Developer unless told) or deny, the requester may
// withdraw; request_access_enabled=false closes it.
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { accessRequests } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

const pendingFor = async (sourceId: number) =>
  (await testDb().db.select({ n: count() }).from(accessRequests).where(eq(accessRequests.sourceId, sourceId)))[0]!.n;

describe.each(['projects', 'groups'] as const)('access requests of %s', (source) => {
  const create = async (token: string) =>
    source === 'projects' ? createProject(token, { visibility: 'public' }) : createGroup(token, { visibility: 'public' });

  it('request (201), list (admins of members), approve at Developer (200, a member), and a second request is refused', async () => {
    const owner = await createUser();
    const s = await create(owner.token);
    const asker = await createUser();
    const asked = await api.post(`/${source}/${s.id}/access_requests`, { token: asker.token });
    expect(asked.status).toBe(201);
    expect(asked.body).toEqual({
      id: asker.user.id,
      name: asker.user.name,
      username: asker.user.username,
      state: 'active',
      avatar_url: null,
      web_url: `https://gitlab.example.test/${asker.user.username}`,
      requested_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const twice = await api.post(`/${source}/${s.id}/access_requests`, { token: asker.token });
    expect([twice.status, twice.body]).toEqual([400, { message: { user: ['already exists in source'] } }]);

    const list = await api.get(`/${source}/${s.id}/access_requests`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: number }) => r.id)).toEqual([asker.user.id]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await api.get(`/${source}/${s.id}/access_requests`, { token: asker.token })).status).toBe(403);

    const approved = await api.put(`/${source}/${s.id}/access_requests/${asker.user.id}/approve`, { token: owner.token });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: asker.user.id, username: asker.user.username, access_level: 30, expires_at: null });
    expect((await api.get(`/${source}/${s.id}/members/${asker.user.id}`, { token: owner.token })).body.access_level).toBe(30);
    expect(await pendingFor(s.id)).toBe(0);
    if (source === 'projects') {
      const feed = await api.get(`/projects/${s.id}/events`, { token: owner.token, query: { action: 'joined' } });
      expect(feed.body.map((e: { author_id: number; action_name: string }) => [e.author_id, e.action_name])).toEqual([[asker.user.id, 'joined']]);
    }
    // A member cannot ask again.
    expect((await api.post(`/${source}/${s.id}/access_requests`, { token: asker.token })).status).toBe(403);
    const gone = await api.put(`/${source}/${s.id}/access_requests/${asker.user.id}/approve`, { token: owner.token });
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it('approve at a given level; deny; withdraw; a level above the source allows is refused and the request stays', async () => {
    const owner = await createUser();
    const s = await create(owner.token);
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    for (const u of [a, b, c]) expect((await api.post(`/${source}/${s.id}/access_requests`, { token: u.token })).status).toBe(201);

    const bad = await api.put(`/${source}/${s.id}/access_requests/${a.user.id}/approve`, { token: owner.token, body: { access_level: 35 } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'access_level does not have a valid value' }]);
    if (source === 'projects') {
      const owner50 = await api.put(`/${source}/${s.id}/access_requests/${a.user.id}/approve`, { token: owner.token, body: { access_level: 50 } });
      expect([owner50.status, owner50.body]).toEqual([400, { message: { access_level: ['is not included in the list'] } }]);
    }
    expect(await pendingFor(s.id)).toBe(3);
    const guest = await api.put(`/${source}/${s.id}/access_requests/${a.user.id}/approve`, { token: owner.token, body: { access_level: 10 } });
    expect([guest.status, guest.body.access_level]).toEqual([200, 10]);

    // b's request may not be withdrawn by c; the owner denies it.
    expect((await api.delete(`/${source}/${s.id}/access_requests/${b.user.id}`, { token: c.token })).status).toBe(403);
    expect((await api.delete(`/${source}/${s.id}/access_requests/${b.user.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.delete(`/${source}/${s.id}/access_requests/${c.user.id}`, { token: c.token })).status).toBe(204);
    expect(await pendingFor(s.id)).toBe(0);
    expect((await api.get(`/${source}/${s.id}/members/${b.user.id}`, { token: owner.token })).status).toBe(404);
  });

  it('request_access_enabled=false refuses requests (403); a hidden source is 404', async () => {
    const owner = await createUser();
    const s = await create(owner.token);
    expect((await api.put(`/${source}/${s.id}`, { token: owner.token, body: { request_access_enabled: false } })).status).toBe(200);
    const asker = await createUser();
    const refused = await api.post(`/${source}/${s.id}/access_requests`, { token: asker.token });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    const hidden = source === 'projects' ? await createProject(owner.token) : await createGroup(owner.token);
    const unseen = await api.post(`/${source}/${hidden.id}/access_requests`, { token: asker.token });
    expect([unseen.status, unseen.body]).toEqual([404, { message: `404 ${source === 'projects' ? 'Project' : 'Group'} Not Found` }]);
    expect(await pendingFor(s.id)).toBe(0);
  });

  it('concurrent approvals of one request: one membership', async () => {
    const owner = await createUser();
    const s = await create(owner.token);
    const asker = await createUser();
    await api.post(`/${source}/${s.id}/access_requests`, { token: asker.token });
    const results = await Promise.all([1, 2, 3].map(() => api.put(`/${source}/${s.id}/access_requests/${asker.user.id}/approve`, { token: owner.token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([404, 409]).toContain(r.status);
    expect((await api.get(`/${source}/${s.id}/members`, { token: owner.token })).body.filter((m: { id: number }) => m.id === asker.user.id)).toHaveLength(1);
  });

  describeAuthorization(`GET /${source}/:id/access_requests`, {
    fixture: async () => {
      const owner = await createUser();
      const s = await create(owner.token);
      const lower = await createUser();
      await addMember(owner.token, source, s.id, lower.user.id, source === 'projects' ? 30 : 40);
      return { allowed: owner.token, id: s.id, nonMember: (await createUser()).token, insufficientRole: lower.token };
    },
    call: (fx, token) => api.get(`/${source}/${fx.id}/access_requests`, { token }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });
});
