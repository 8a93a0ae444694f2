// Events recorded by the issues API (opened, closed, reopened), read back through the three listings, including a
// confidential issue's events hidden from a guest.
import { describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

describe('issue events through the issues API', () => {
  it('opened, closed, reopened (action_name opened), confidential ones hidden from guests', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
    const issue = await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'Events flow' } });
    expect(issue.status).toBe(201);
    expect((await api.put(`/projects/${p.id}/issues/${issue.body.iid}`, { token: owner.token, body: { state_event: 'close' } })).status).toBe(200);
    expect((await api.put(`/projects/${p.id}/issues/${issue.body.iid}`, { token: owner.token, body: { state_event: 'reopen' } })).status).toBe(200);
    const secret = await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'Secret', confidential: true } });
    expect(secret.status).toBe(201);

    const res = await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { target_type: 'issue', sort: 'asc' } });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.action_name, e.target_iid, e.target_title])).toEqual([
      ['opened', issue.body.iid, 'Events flow'],
      ['closed', issue.body.iid, 'Events flow'],
      ['opened', issue.body.iid, 'Events flow'],
      ['opened', secret.body.iid, 'Secret'],
    ]);
    const closed = await api.get(`/users/${owner.user.username}/events`, { token: owner.token, query: { action: 'closed' } });
    expect(closed.body.map((e: any) => e.target_id)).toEqual([issue.body.id]);
    const asGuest = await api.get(`/projects/${p.id}/events`, { token: guest.token, query: { target_type: 'issue' } });
    expect(asGuest.body.map((e: any) => e.target_title)).toEqual(['Events flow', 'Events flow', 'Events flow']);
    expect(asGuest.headers.get('x-total')).toBe('4');
  });
});
