import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members } from '../../../db/schema/index.ts';
import { addMember, createGroup, type MemberSource } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const FORBIDDEN = { message: '403 Forbidden' };
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

const rowsOf = (type: 'Project' | 'Namespace', id: number) =>
  testDb()
    .db.select()
    .from(members)
    .where(and(eq(members.sourceType, type), eq(members.sourceId, id)))
    .orderBy(members.id);

/** A source with an admin (group owner / project maintainer in a group), a developer and an outsider, public or not. */
async function source(kind: MemberSource, visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const admin = await createUser();
  const developer = await createUser();
  const stranger = await createUser();
  const target = await createUser();
  const group = await createGroup(owner.token, { visibility });
  let id = group.id;
  if (kind === 'projects') id = (await createProject(owner.token, { namespaceId: group.id, visibility })).id;
  await addMember(owner.token, kind, id, admin.user.id, kind === 'groups' ? 50 : 40);
  await addMember(owner.token, kind, id, developer.user.id, 30);
  const type = kind === 'groups' ? ('Namespace' as const) : ('Project' as const);
  return { owner, admin, developer, stranger, target, group, id, type, allowed: admin.token, insufficientRole: developer.token, nonMember: stranger.token };
}

for (const kind of ['groups', 'projects'] as MemberSource[]) {
  describe(`POST /${kind}/:id/members`, () => {
    it('201 with the Member entity', async () => {
      const fx = await source(kind);
      const expires = tomorrow();
      const res = await api.post(`/${kind}/${fx.id}/members`, {
        token: fx.admin.token,
        form: { user_id: String(fx.target.user.id), access_level: '30', expires_at: expires },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: fx.target.user.id, username: fx.target.user.username, state: 'active', access_level: 30, expires_at: expires });
      expect((await api.get(`/${kind}/${fx.id}/members/${fx.target.user.id}`, { token: fx.developer.token })).body.access_level).toBe(30);
    });

    it('400/404/409 failures, each leaving the memberships unchanged', async () => {
      const fx = await source(kind);
      const before = await rowsOf(fx.type, fx.id);
      const post = (body: Record<string, unknown>) => api.post(`/${kind}/${fx.id}/members`, { token: fx.admin.token, body });
      const cases: Array<[Record<string, unknown>, number, unknown]> = [
        [{}, 400, { error: 'user_id is missing, access_level is missing' }],
        [{ user_id: fx.target.user.id, access_level: 35 }, 400, { error: 'access_level does not have a valid value' }],
        [{ user_id: fx.target.user.id, access_level: 'dev' }, 400, { error: 'access_level is invalid' }],
        [{ user_id: 'abc', access_level: 30 }, 400, { error: 'user_id is invalid' }],
        [{ user_id: fx.target.user.id, access_level: 30, expires_at: '05/08/2030' }, 400, { error: 'expires_at is invalid' }],
        [{ user_id: fx.target.user.id, access_level: 30, expires_at: '2099-02-31' }, 400, { error: 'expires_at is invalid' }],
        [{ user_id: fx.target.user.id, access_level: 30, expires_at: '0000-01-01' }, 400, { error: 'expires_at is invalid' }],
        [{ user_id: fx.target.user.id, access_level: 30, expires_at: '2001-01-01' }, 400, { message: { expires_at: ['cannot be a date in the past'] } }],
        [{ user_id: -5, access_level: 30 }, 404, { message: '404 User Not Found' }],
        [{ user_id: 0, access_level: 30 }, 404, { message: '404 User Not Found' }],
        [{ user_id: 999999999, access_level: 30 }, 404, { message: '404 User Not Found' }],
        [{ user_id: fx.developer.user.id, access_level: 40 }, 409, { message: 'Member already exists' }],
      ];
      for (const [body, status, expected] of cases) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body).toEqual(expected);
      }
      expect(await rowsOf(fx.type, fx.id)).toEqual(before);
    });

    it('concurrent adds of the same user: exactly one 201 and one 409', async () => {
      const fx = await source(kind);
      const body = { user_id: fx.target.user.id, access_level: 20 };
      const results = await Promise.all([1, 2].map(() => api.post(`/${kind}/${fx.id}/members`, { token: fx.admin.token, body })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)!.body).toEqual({ message: 'Member already exists' });
      expect((await rowsOf(fx.type, fx.id)).filter((m) => m.userId === fx.target.user.id)).toHaveLength(1);
    });

    describeAuthorization(`POST /${kind}/:id/members`, {
      fixture: () => source(kind),
      call: (fx, token) => api.post(`/${kind}/${fx.id}/members`, { token, body: { user_id: fx.target.user.id, access_level: 20 } }),
      success: 201,
      nonMember: { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } },
      insufficientRole: { status: 403, body: FORBIDDEN },
    });

    describeAuthorization(`POST /${kind}/:id/members (public source)`, {
      fixture: () => source(kind, 'public'),
      call: (fx, token) => api.post(`/${kind}/${fx.id}/members`, { token, body: { user_id: fx.target.user.id, access_level: 20 } }),
      success: 201,
      nonMember: { status: 403, body: FORBIDDEN },
    });
  });

  describe(`PUT /${kind}/:id/members/:user_id`, () => {
    it('changes the level and the expiry; null clears the expiry', async () => {
      const fx = await source(kind);
      const expires = tomorrow();
      const res = await api.put(`/${kind}/${fx.id}/members/${fx.developer.user.id}`, {
        token: fx.admin.token,
        body: { access_level: 20, expires_at: expires },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: fx.developer.user.id, access_level: 20, expires_at: expires });
      const cleared = await api.put(`/${kind}/${fx.id}/members/${fx.developer.user.id}`, {
        token: fx.admin.token,
        body: { access_level: 10, expires_at: null },
      });
      expect(cleared.body).toMatchObject({ access_level: 10, expires_at: null });
    });

    it('400 without access_level or with a bad one; 404 for a non-member', async () => {
      const fx = await source(kind);
      const url = `/${kind}/${fx.id}/members/${fx.developer.user.id}`;
      expect((await api.put(url, { token: fx.admin.token, body: { expires_at: tomorrow() } })).body).toEqual({ error: 'access_level is missing' });
      expect((await api.put(url, { token: fx.admin.token, body: { access_level: 1234 } })).body).toEqual({ error: 'access_level does not have a valid value' });
      const missing = await api.put(`/${kind}/${fx.id}/members/${fx.target.user.id}`, { token: fx.admin.token, body: { access_level: 30 } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    });

    describeAuthorization(`PUT /${kind}/:id/members/:user_id`, {
      fixture: () => source(kind),
      call: (fx, token) => api.put(`/${kind}/${fx.id}/members/${fx.developer.user.id}`, { token, body: { access_level: 20 } }),
      success: 200,
      nonMember: { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } },
      insufficientRole: { status: 403, body: FORBIDDEN },
    });
  });

  describe(`DELETE /${kind}/:id/members/:user_id`, () => {
    it('204 and the membership is gone; members may leave by themselves', async () => {
      const fx = await source(kind);
      const res = await api.delete(`/${kind}/${fx.id}/members/${fx.developer.user.id}`, { token: fx.admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get(`/${kind}/${fx.id}/members/${fx.developer.user.id}`, { token: fx.admin.token })).status).toBe(404);
      await addMember(fx.admin.token, kind, fx.id, fx.target.user.id, 10);
      expect((await api.delete(`/${kind}/${fx.id}/members/${fx.target.user.id}`, { token: fx.target.token })).status).toBe(204);
      expect((await api.delete(`/${kind}/${fx.id}/members/${fx.target.user.id}`, { token: fx.admin.token })).body).toEqual({ message: '404 Not found' });
    });

    describeAuthorization(`DELETE /${kind}/:id/members/:user_id`, {
      fixture: async () => {
        const fx = await source(kind);
        await addMember(fx.admin.token, kind, fx.id, fx.target.user.id, 10);
        return fx;
      },
      call: (fx, token) => api.delete(`/${kind}/${fx.id}/members/${fx.target.user.id}`, { token }),
      success: 204,
      nonMember: { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } },
      insufficientRole: { status: 403, body: FORBIDDEN },
    });
  });
}

describe('membership rules', () => {
  it('project members cannot be made Owner through the project API (400, GitLab ProjectMember validation)', async () => {
    const fx = await source('projects');
    const add = await api.post(`/projects/${fx.id}/members`, { token: fx.owner.token, body: { user_id: fx.target.user.id, access_level: 50 } });
    expect(add.status).toBe(400);
    expect(add.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const update = await api.put(`/projects/${fx.id}/members/${fx.developer.user.id}`, { token: fx.owner.token, body: { access_level: 50 } });
    expect(update.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    expect((await rowsOf('Project', fx.id)).find((m) => m.userId === fx.target.user.id)).toBeUndefined();
  });

  it('a direct level below an inherited one is refused (400), naming the group', async () => {
    const { token } = await createUser();
    const { user } = await createUser();
    const parent = await createGroup(token, { name: 'Parent Group' });
    const child = await createGroup(token, { parentId: parent.id });
    await addMember(token, 'groups', parent.id, user.id, 30);
    const res = await api.post(`/groups/${child.id}/members`, { token, body: { user_id: user.id, access_level: 10 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { access_level: ['should be greater than or equal to Developer inherited membership from group Parent Group'] } });
    expect((await api.post(`/groups/${child.id}/members`, { token, body: { user_id: user.id, access_level: 40 } })).status).toBe(201);
  });

  it('the last Owner of a group can be neither demoted nor removed (403, nothing changes), even by an admin', async () => {
    const { user, token } = await createUser();
    const { token: adminToken } = await createAdmin();
    const group = await createGroup(token);
    const before = await rowsOf('Namespace', group.id);
    expect((await api.put(`/groups/${group.id}/members/${user.id}`, { token, body: { access_level: 40 } })).body).toEqual(FORBIDDEN);
    expect((await api.delete(`/groups/${group.id}/members/${user.id}`, { token })).body).toEqual(FORBIDDEN);
    expect((await api.delete(`/groups/${group.id}/members/${user.id}`, { token: adminToken })).status).toBe(403);
    expect(await rowsOf('Namespace', group.id)).toEqual(before);
  });

  it('with another owner (direct, or above in a parent group) the owner may be demoted and removed', async () => {
    const { user, token } = await createUser();
    const { user: second, token: secondToken } = await createUser();
    const group = await createGroup(token);
    await addMember(token, 'groups', group.id, second.id, 50);
    expect((await api.put(`/groups/${group.id}/members/${user.id}`, { token: secondToken, body: { access_level: 40 } })).status).toBe(200);
    expect((await api.delete(`/groups/${group.id}/members/${second.id}`, { token: secondToken })).status).toBe(403);

    // An owner of the parent group counts: the child's only direct owner may then leave it.
    const { user: third, token: thirdToken } = await createUser();
    const top = await createGroup(thirdToken);
    const child = await createGroup(thirdToken, { parentId: top.id });
    expect((await api.delete(`/groups/${child.id}/members/${third.id}`, { token: thirdToken })).status).toBe(403);
    await addMember(thirdToken, 'groups', top.id, second.id, 50);
    expect((await api.delete(`/groups/${child.id}/members/${third.id}`, { token: thirdToken })).status).toBe(204);
  });

  it("the owner of a personal project's namespace can be neither changed nor removed", async () => {
    const { user, token } = await createUser();
    const { user: other } = await createUser();
    const project = await createProject(token);
    await addMember(token, 'projects', project.id, other.id, 40);
    expect((await api.put(`/projects/${project.id}/members/${user.id}`, { token, body: { access_level: 30 } })).body).toEqual(FORBIDDEN);
    expect((await api.delete(`/projects/${project.id}/members/${user.id}`, { token })).body).toEqual(FORBIDDEN);
    expect((await api.get(`/projects/${project.id}/members/${user.id}`, { token })).body.access_level).toBe(50);
  });

  it('a member of a parent group may manage the members of a subgroup project by inheritance', async () => {
    const { token } = await createUser();
    const { user: maintainer, token: maintainerToken } = await createUser();
    const { user: target } = await createUser();
    const parent = await createGroup(token);
    const child = await createGroup(token, { parentId: parent.id });
    const project = await createProject(token, { namespaceId: child.id });
    await addMember(token, 'groups', parent.id, maintainer.id, 40);
    const res = await api.post(`/projects/${project.id}/members`, { token: maintainerToken, body: { user_id: target.id, access_level: 40 } });
    expect(res.status).toBe(201);
    // ...but not those of the groups (admin_members on a group needs Owner).
    expect((await api.post(`/groups/${child.id}/members`, { token: maintainerToken, body: { user_id: target.id, access_level: 40 } })).status).toBe(403);
  });

  it('a stranger may not remove members of a public group (403) and gets 404 on a private one', async () => {
    const open = await source('groups', 'public');
    expect((await api.delete(`/groups/${open.id}/members/${open.developer.user.id}`, { token: open.stranger.token })).body).toEqual(FORBIDDEN);
    const closed = await source('groups');
    expect((await api.delete(`/groups/${closed.id}/members/${closed.developer.user.id}`, { token: closed.stranger.token })).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});
