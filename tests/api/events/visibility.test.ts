// Who sees which events: private projects (filtered in SQL, not counted), confidential issues and their notes
// (checked per event after pagination), internal notes, private profiles, scope=all, and the authorization suite.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createToken, createUser } from '../../factories/users.ts';
import { insertTestEvent, insertTestIssue, insertTestNote } from '../../factories/events.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const ids = (res: { body: any }) => res.body.map((e: any) => e.id);

describe('GET /events', () => {
  it('401 for anonymous callers', async () => {
    expect(await api.get('/events')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.get('/events', { query: { action: 'bogus' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it("the caller's own events; scope=all adds every event of the projects they are authorized for", async () => {
    const me = await createUser();
    const other = await createUser();
    const stranger = await createUser();
    const group = await createGroup(other.token);
    const grouped = await createProject(other.token, { namespaceId: group.id });
    const direct = await createProject(other.token);
    const publicOne = await createProject(stranger.token, { visibility: 'public' });
    await addMember(other.token, 'groups', group.id, me.user.id, 10);
    await addMember(other.token, 'projects', direct.id, me.user.id, 10);
    const own = await api.get('/events', { token: me.token });
    expect(own.status).toBe(200);
    expect(own.body.map((e: any) => [e.action_name, e.project_id])).toEqual([['joined', direct.id]]);
    expect(own.body.every((e: any) => e.author_id === me.user.id)).toBe(true);

    const all = await api.get('/events', { token: me.token, query: { scope: 'all', per_page: 100 } });
    const projects = new Set(all.body.map((e: any) => e.project_id));
    expect(projects).toEqual(new Set([grouped.id, direct.id]));
    expect(projects.has(publicOne.id)).toBe(false);
    expect(all.body.some((e: any) => e.author_id === other.user.id && e.action_name === 'created')).toBe(true);
    // other values of scope are ignored
    expect(ids(await api.get('/events', { token: me.token, query: { scope: 'mine' } }))).toEqual(ids(own));
  });

  it('own events in a project the caller can no longer read are dropped', async () => {
    const owner = await createUser();
    const me = await createUser();
    const p = await createProject(owner.token);
    await addMember(owner.token, 'projects', p.id, me.user.id, 30);
    await api.delete(`/projects/${p.id}/members/${me.user.id}`, { token: owner.token });
    const res = await api.get('/events', { token: me.token });
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });
});

describe('GET /users/:id/events', () => {
  it('anonymous callers see events of public projects only, not counted otherwise', async () => {
    const u = await createUser();
    const pub = await createProject(u.token, { visibility: 'public' });
    await createProject(u.token, { visibility: 'private' });
    const anon = await api.get(`/users/${u.user.id}/events`);
    expect(anon.status).toBe(200);
    expect(anon.body.map((e: any) => e.project_id)).toEqual([pub.id]);
    expect(anon.headers.get('x-total')).toBe('1');
    expect((await api.get(`/users/${u.user.id}/events`, { token: u.token })).body).toHaveLength(2);
  });

  it('a private profile yields 200 [] except for its owner and administrators', async () => {
    const u = await createUser({ privateProfile: true });
    await createProject(u.token, { visibility: 'public' });
    const viewer = await createUser();
    const admin = await createAdmin();
    for (const token of [undefined, viewer.token]) {
      const res = await api.get(`/users/${u.user.id}/events`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-total')).toBe('0');
      expect(res.headers.get('x-page')).toBe('1');
    }
    expect((await api.get(`/users/${u.user.id}/events`, { token: u.token })).body).toHaveLength(1);
    expect((await api.get(`/users/${u.user.id}/events`, { token: admin.token })).body).toHaveLength(1);
  });
});

describe('GET /projects/:id/events', () => {
  it('a private project is 404 to strangers and anonymous callers', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const p = await createProject(owner.token);
    for (const token of [undefined, stranger.token]) {
      expect(await api.get(`/projects/${p.id}/events`, { token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    }
    const pub = await createProject(owner.token, { visibility: 'public' });
    expect((await api.get(`/projects/${pub.id}/events`)).body.map((e: any) => e.action_name)).toEqual(['created']);
  });

  it('confidential issue events and their notes only for reporters+, the author and assignees; confidential notes for reporters+ and the issue author and assignees (13.x NotePolicy)', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const author = await createUser();
    const assignee = await createUser();
    const reporter = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', p.id, author.user.id, 10);
    await addMember(owner.token, 'projects', p.id, assignee.user.id, 10);
    await addMember(owner.token, 'projects', p.id, reporter.user.id, 20);
    const secret = await insertTestIssue({ projectId: p.id, authorId: author.user.id, confidential: true, assigneeIds: [assignee.user.id] });
    const open = await insertTestIssue({ projectId: p.id, authorId: author.user.id });
    const secretNote = await insertTestNote({ projectId: p.id, issueId: secret.id, authorId: author.user.id });
    const internal = await insertTestNote({ projectId: p.id, issueId: open.id, authorId: reporter.user.id, confidential: true });
    const e1 = await insertTestEvent({ authorId: author.user.id, projectId: p.id, action: 'created', targetType: 'Issue', targetId: secret.id });
    const e2 = await insertTestEvent({ authorId: author.user.id, projectId: p.id, action: 'commented', targetType: 'Note', targetId: secretNote.id });
    const e3 = await insertTestEvent({ authorId: author.user.id, projectId: p.id, action: 'created', targetType: 'Issue', targetId: open.id });
    const e4 = await insertTestEvent({ authorId: reporter.user.id, projectId: p.id, action: 'commented', targetType: 'Note', targetId: internal.id });
    const seen = async (token?: string) => {
      const res = await api.get(`/projects/${p.id}/events`, { token, query: { per_page: 100 } });
      expect(res.status).toBe(200);
      // Hidden events still count (checked after pagination, as GitLab).
      expect(res.headers.get('x-total')).toBe('9');
      return ids(res)
        .filter((id: number) => [e1, e2, e3, e4].includes(id))
        .sort();
    };
    const all = [e1, e2, e3, e4].sort();
    expect(await seen(owner.token)).toEqual(all);
    expect(await seen(reporter.token)).toEqual(all);
    // The open issue's author reads the confidential note on it; the secret issue's assignee does not.
    expect(await seen(author.token)).toEqual(all);
    expect(await seen(assignee.token)).toEqual([e1, e2, e3].sort());
    expect(await seen(guest.token)).toEqual([e3]);
    expect(await seen(undefined)).toEqual([e3]);
  });
});

// ---- The shared authorization suite ----

async function fixture() {
  const owner = await createUser();
  const reader = await createUser();
  const stranger = await createUser();
  const p = await createProject(owner.token);
  await addMember(owner.token, 'projects', p.id, reader.user.id, 10);
  return { owner, p, reader, allowed: reader.token, nonMember: stranger.token };
}
const NOT_FOUND_PROJECT = { status: 404, body: { message: '404 Project Not Found' } };

describeAuthorization('GET /events', {
  fixture,
  call: (_fx, token) => api.get('/events', { token }),
  success: 200,
});
describeAuthorization('GET /users/:id/events', {
  fixture,
  call: (fx, token) => api.get(`/users/${fx.owner.user.id}/events`, { token }),
  success: 200,
  anonymous: { status: 200, body: [] },
  nonMember: { status: 200, body: [] },
});
describeAuthorization('GET /projects/:id/events (private project)', {
  fixture,
  call: (fx, token) => api.get(`/projects/${fx.p.id}/events`, { token }),
  success: 200,
  anonymous: NOT_FOUND_PROJECT,
  nonMember: NOT_FOUND_PROJECT,
});

describe('token scopes', () => {
  it('read_user reaches /events and /users/:id/events but not /projects/:id/events; read_api reaches all three', async () => {
    const { owner, p } = await fixture();
    const readUser = await createToken(owner.user, ['read_user']);
    const readApi = await createToken(owner.user, ['read_api']);
    expect((await api.get('/events', { token: readUser })).status).toBe(200);
    expect((await api.get(`/users/${owner.user.id}/events`, { token: readUser })).status).toBe(200);
    const denied = await api.get(`/projects/${p.id}/events`, { token: readUser });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('insufficient_scope');
    for (const path of ['/events', `/users/${owner.user.id}/events`, `/projects/${p.id}/events`]) {
      expect((await api.get(path, { token: readApi })).status, path).toBe(200);
    }
  });
});
