// GET /namespaces and GET /namespaces/:id as GitLab 13.6 answers them: the caller's own namespace and the groups it
// is a member of (every namespace for administrators), `search`, `owned_only`, by id or URL-encoded full path;
// what the caller may not read is 404 Namespace Not Found.
import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const DEVELOPER = 30;

describe('GET /namespaces', () => {
  it("the caller's own namespace and its groups, oldest first, with pagination headers; owned_only; search", async () => {
    const { user, token } = await createUser();
    const owned = await createGroup(token, { path: unique('ns-own') });
    const other = await createUser();
    const joined = await createGroup(other.token, { path: unique('ns-joined') });
    await addMember(other.token, 'groups', joined.id, user.id, DEVELOPER);
    const hidden = await createGroup(other.token);
    const res = await api.get('/namespaces', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-per-page')).toBe('20');
    const body = res.body as { id: number; kind: string; full_path: string }[];
    expect(body.map((n) => n.full_path)).toEqual([user.username, owned.full_path, joined.full_path]);
    expect(body.map((n) => n.id)).not.toContain(hidden.id);
    expect(body[1]).toEqual({
      id: owned.id,
      name: owned.name,
      path: owned.path,
      kind: 'group',
      full_path: owned.full_path,
      parent_id: null,
      avatar_url: null,
      web_url: `${TEST_PUBLIC_URL}/groups/${owned.full_path}`,
      members_count_with_descendants: 1,
    });
    // Members count only for groups the caller administers.
    expect(body[2]).not.toHaveProperty('members_count_with_descendants');
    expect(body[0]).toMatchObject({ kind: 'user', web_url: `${TEST_PUBLIC_URL}/${user.username}` });
    const ownedOnly = (await api.get('/namespaces', { token, query: { owned_only: true } })).body as { id: number }[];
    expect(ownedOnly.map((n) => n.id)).toEqual([body[0]!.id, owned.id]);
    const searched = (await api.get('/namespaces', { token, query: { search: 'ns-joined' } })).body as { id: number }[];
    expect(searched.map((n) => n.id)).toEqual([joined.id]);
  });

  it('administrators see every namespace; per_page pages them', async () => {
    const { token } = await createAdmin();
    const stranger = await createUser();
    const group = await createGroup(stranger.token, { path: unique('adminsees') });
    const found = (await api.get('/namespaces', { token, query: { search: group.path } })).body as { id: number }[];
    expect(found.map((n) => n.id)).toEqual([group.id]);
    const page = await api.get('/namespaces', { token, query: { per_page: 2 } });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-next-page')).toBe('2');
  });

  it('400 for bad parameters', async () => {
    const { token } = await createUser();
    expect((await api.get('/namespaces', { token, query: { owned_only: 'perhaps' } })).body).toEqual({ error: 'owned_only is invalid' });
  });

  describeAuthorization('GET /namespaces', {
    fixture: async () => ({ allowed: (await createUser()).token }),
    call: (_fx, token) => api.get('/namespaces', { token }),
    success: 200,
  });
});

describe('GET /namespaces/:id', () => {
  it('by id or URL-encoded full path (a subgroup too); a personal namespace is its owner’s and administrators’', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: group.id });
    for (const ref of [String(sub.id), encodeURIComponent(sub.full_path)]) {
      const res = await api.get(`/namespaces/${ref}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: sub.id, kind: 'group', full_path: sub.full_path, parent_id: group.id, members_count_with_descendants: 1 });
    }
    const mine = await api.get(`/namespaces/${owner.user.username}`, { token: owner.token });
    expect(mine.body).toMatchObject({ kind: 'user', full_path: owner.user.username });
    const stranger = await createUser();
    for (const ref of [owner.user.username, String(group.id), 'no-such-namespace', '999999999']) {
      const res = await api.get(`/namespaces/${ref}`, { token: stranger.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Namespace Not Found' });
    }
    expect((await api.get(`/namespaces/${owner.user.username}`, { token: (await createAdmin()).token })).status).toBe(200);
  });

  describeAuthorization('GET /namespaces/:id (a private group)', {
    fixture: async () => {
      const owner = await createUser();
      const group = await createGroup(owner.token, { visibility: 'private' });
      return { allowed: owner.token, id: group.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.get(`/namespaces/${fx.id}`, { token }),
    success: 200,
    nonMember: { status: 404, body: { message: '404 Namespace Not Found' } },
  });
});
