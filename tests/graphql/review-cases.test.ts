// Cases found in review: a deleted author reads as GitLab's ghost user (not an error that drops the issue), cursors
// naming ids no row can have are refused, `users` hides external users from non-administrators as REST does, and
// member search matches private emails for administrators only.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createProject } from '../factories/projects.ts';
import { createAdmin, createUser } from '../factories/users.ts';
import { api } from '../helpers/app.ts';
import { encodeCursor } from '../../functions/lib/pagination.ts';
import { gql } from './helpers.ts';

describe('review cases', () => {
  it('an issue whose author was deleted shows the ghost user, in the page and alone', async () => {
    const owner = await createUser();
    const author = await createUser();
    const admin = await createAdmin();
    const p = await createProject(owner.token, { visibility: 'public' });
    const issue = await createIssue(author.token, p.id);
    expect((await api.delete(`/users/${author.user.id}`, { token: admin.token })).status).toBe(204);
    const res = await gql(`{ project(fullPath: "${p.path_with_namespace}") { issues { nodes { iid author { username name } } } } }`, { token: owner.token });
    expect(res.body).toEqual({ data: { project: { issues: { nodes: [{ iid: String(issue.iid), author: { username: 'ghost', name: 'Ghost User' } }] } } } });
  });

  it('a cursor naming an id beyond the database range is refused, not a server error', async () => {
    const { token } = await createUser();
    for (const id of ['99999999999', '1e300']) {
      const res = await gql(`{ users(after: "${encodeCursor({ id })}") { nodes { username } } }`, { token });
      expect(res.body.errors?.[0]?.message, id).toBe('Please provide a valid cursor');
    }
  });

  it('users: external users only for administrators (UsersFinder)', async () => {
    const external = await createUser({ external: true });
    const { token } = await createUser();
    const admin = await createAdmin();
    const query = `{ users(usernames: ["${external.user.username}"]) { nodes { username } } }`;
    expect((await gql(query, { token })).body).toEqual({ data: { users: { nodes: [] } } });
    expect((await gql(query, { token: admin.token })).body).toEqual({ data: { users: { nodes: [{ username: external.user.username }] } } });
  });

  it('member search matches a private email for administrators only (REST and GraphQL)', async () => {
    const owner = await createUser();
    const member = await createUser();
    const admin = await createAdmin();
    const p = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', p.id, member.user.id, 30);
    const email = member.user.email;
    expect((await api.get(`/projects/${p.id}/members`, { token: owner.token, query: { query: email } })).body).toEqual([]);
    expect((await api.get(`/projects/${p.id}/members`, { token: admin.token, query: { query: email } })).body.map((m: any) => m.id)).toEqual([member.user.id]);
    const q = `{ project(fullPath: "${p.path_with_namespace}") { projectMembers(search: "${email}") { nodes { user { username } } } } }`;
    expect((await gql(q, { token: owner.token })).body.data.project.projectMembers.nodes).toEqual([]);
    expect((await gql(q, { token: admin.token })).body.data.project.projectMembers.nodes).toEqual([{ user: { username: member.user.username } }]);
  });

  it('REST refuses an award on a system note (not emoji-awardable), as GraphQL does', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const issue = await createIssue(owner.token, p.id);
    await api.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'close' } });
    const system = (await api.get(`/projects/${p.id}/issues/${issue.iid}/notes`, { token: owner.token })).body[0];
    expect(system.system).toBe(true);
    const res = await api.post(`/projects/${p.id}/issues/${issue.iid}/notes/${system.id}/award_emoji`, { token: owner.token, body: { name: 'tada' } });
    expect(res).toMatchObject({ status: 404, body: { message: '404 Award Emoji Not Found' } });
  });
});
