// Date parameters take what GitLab's parsing takes (Ruby's Date.parse for Grape's `Date`, ActiveRecord's date cast
// for the `String` dates of issues and milestones): a date-time names its date, as written. Garbage stays 400.
// The forms themselves are tabled in tests/unit/dates.test.ts.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

async function owner() {
  const { user, token } = await createUser();
  const group = await createGroup(token);
  const project = await createProject(token, { namespaceId: group.id });
  return { user, token, group, project };
}

describe('date parameters with a time', () => {
  it('issues: due_date on create and update', async () => {
    const { token, project } = await owner();
    const created = await api.post(`/projects/${project.id}/issues`, { token, body: { title: 't', due_date: '2020-01-01T00:00:00Z' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.due_date).toBe('2020-01-01');
    const issue = await createIssue(token, project.id);
    // The date as written, not moved to UTC (which would be the next day).
    const updated = await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token, form: { due_date: '2020-03-04T23:30:00-05:00' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.due_date).toBe('2020-03-04');
    const garbage = await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token, body: { due_date: '2020-03-04junk' } });
    expect(garbage).toMatchObject({ status: 400, body: { error: 'due_date is invalid' } });
  });

  it('project and group milestones: start_date and due_date on create and update', async () => {
    const { token, group, project } = await owner();
    for (const base of [`/projects/${project.id}/milestones`, `/groups/${group.id}/milestones`]) {
      const created = await api.post(base, { token, body: { title: `m ${base}`, start_date: '2020-01-01T00:00:00Z', due_date: '2020-02-01 10:00:00 +0100' } });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ start_date: '2020-01-01', due_date: '2020-02-01' });
      const updated = await api.put(`${base}/${created.body.id}`, { token, form: { due_date: 'Wed, 01 Apr 2020 00:00:00 GMT' } });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.due_date).toBe('2020-04-01');
      const garbage = await api.put(`${base}/${created.body.id}`, { token, body: { start_date: 'tomorrow' } });
      expect(garbage).toMatchObject({ status: 400, body: { error: 'start_date is invalid' } });
    }
  });

  it('members: expires_at', async () => {
    const { token, project } = await owner();
    const other = await createUser();
    const year = new Date().getUTCFullYear() + 1;
    const added = await api.post(`/projects/${project.id}/members`, {
      token,
      body: { user_id: other.user.id, access_level: 30, expires_at: `${year}-06-01T12:00:00Z` },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.expires_at).toBe(`${year}-06-01`);
  });

  it('personal access tokens: expires_at', async () => {
    const { token: admin } = await createAdmin();
    const { user } = await createUser();
    const year = new Date().getUTCFullYear() + 1;
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, {
      token: admin,
      body: { name: 'pat', scopes: ['api'], expires_at: `${year}-06-01T00:00:00.000Z` },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.expires_at).toBe(`${year}-06-01`);
  });

  it('events: before and after', async () => {
    const { token } = await owner();
    const res = await api.get('/events', { token, query: { after: '2000-01-01T00:00:00Z', before: '2999-12-31T00:00:00Z' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(await api.get('/events', { token, query: { after: '2000-01-01junk' } })).toMatchObject({ status: 400, body: { error: 'after is invalid' } });
  });
});
