// PUT /users/:id and DELETE /users/:id (administrators).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emails, members, namespaces, personalAccessTokens, users } from '../../../db/schema/index.ts';
import { verifyPassword } from '../../../functions/lib/crypto.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const db = () => testDb().db;

describeAuthorization('PUT /users/:id', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token, target: (await createUser()).user }),
  call: (fx, token) => api.put(`/users/${fx.target.id}`, { token, body: { bio: 'x' } }),
  success: 200,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('DELETE /users/:id', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token, target: (await createUser()).user }),
  call: (fx, token) => api.delete(`/users/${fx.target.id}`, { token }),
  success: 204,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describe('PUT /users/:id', () => {
  it('updates attributes and answers UserWithAdmin', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.put(`/users/${user.id}`, {
      token,
      body: { bio: 'new bio', organization: 'GitLab', job_title: 'Engineer', admin: true, private_profile: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      bio: 'new bio',
      organization: 'GitLab',
      job_title: 'Engineer',
      work_information: 'Engineer at GitLab',
      is_admin: true,
      private_profile: true,
    });
    // Absent attributes are left alone; an empty bio is stored as such.
    const again = await api.put(`/users/${user.id}`, { token, body: { bio: '' } });
    expect(again.body).toMatchObject({ bio: '', organization: 'GitLab', private_profile: true });
  });

  it("renames the user and their personal namespace; keeping one's own username is fine", async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    expect((await api.put(`/users/${user.id}`, { token, body: { username: user.username } })).status).toBe(200);
    const username = unique('renamed');
    const res = await api.put(`/users/${user.id}`, { token, body: { username } });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(username);
    const [ns] = await db().select().from(namespaces).where(eq(namespaces.ownerId, user.id));
    expect(ns!.fullPath).toBe(username);
  });

  it('changes the password (hashed)', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    expect((await api.put(`/users/${user.id}`, { token, body: { password: 'another-password' } })).status).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword('another-password', row!.passwordHash)).toBe(true);
  });

  it('409 when another user holds the email or username', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    const { token } = await createAdmin();
    expect((await api.put(`/users/${user.id}`, { token, body: { email: other.email } })).body).toEqual({ message: 'Email has already been taken' });
    const res = await api.put(`/users/${user.id}`, { token, body: { username: other.username.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Username has already been taken' });
  });

  it('400 model errors', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.put(`/users/${user.id}`, { token, body: { password: 'pass', email: 'invalid email', projects_limit: -1 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'], projects_limit: ['must be greater than or equal to 0'] },
    });
    expect((await api.put(`/users/${user.id}`, { token, body: { projects_limit: 'lots' } })).body).toEqual({ error: 'projects_limit is invalid' });
  });

  it("public_email must be one of the user's own verified emails", async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const bad = await api.put(`/users/${user.id}`, { token, body: { public_email: 'someone@else.example' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { public_email: ['is not an email you own'] } });
    expect((await api.put(`/users/${user.id}`, { token, body: { public_email: user.email } })).body.public_email).toBe(user.email);
    const secondary = `${unique('alt')}@example.com`;
    await db().insert(emails).values({ userId: user.id, email: secondary, confirmedAt: new Date() });
    expect((await api.put(`/users/${user.id}`, { token, body: { public_email: secondary } })).status).toBe(200);
  });

  it('404 for unknown users', async () => {
    const { token } = await createAdmin();
    const res = await api.put('/users/0', { token, body: { bio: 'update should fail' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 User Not Found' });
  });

  it(':id is a number: out-of-range ids are 404 User Not Found, a username matches no route', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    for (const ref of ['99999999999', '2147483648']) {
      const res = await api.put(`/users/${ref}`, { token, body: { bio: 'x' } });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
    for (const ref of [user.username, '-5']) {
      const res = await api.put(`/users/${ref}`, { token, body: { bio: 'x' } });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    }
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.bio).toBe('');
  });
});

describe('DELETE /users/:id', () => {
  it('204; the user, their namespace and tokens are gone', async () => {
    const { user, token: theirs } = await createUser();
    const { token } = await createAdmin();
    const res = await api.delete(`/users/${user.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await db().select().from(namespaces).where(eq(namespaces.ownerId, user.id))).toEqual([]);
    expect(await db().select().from(personalAccessTokens).where(eq(personalAccessTokens.userId, user.id))).toEqual([]);
    expect((await api.get('/user', { token: theirs })).status).toBe(401);
    expect((await api.delete(`/users/${user.id}`, { token })).status).toBe(404);
  });

  it('409 for the sole owner of a group unless hard_delete, which takes the group along', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const path = unique('grp');
    const [group] = await db().insert(namespaces).values({ kind: 'group', name: path, path, fullPath: path }).returning();
    await db()
      .update(namespaces)
      .set({ traversalIds: [group!.id] })
      .where(eq(namespaces.id, group!.id));
    await db().insert(members).values({ sourceType: 'Namespace', sourceId: group!.id, userId: user.id, accessLevel: 50 });
    const res = await api.delete(`/users/${user.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
    expect((await api.delete(`/users/${user.id}`, { token, query: { hard_delete: true } })).status).toBe(204);
    const [after] = await db().select().from(namespaces).where(eq(namespaces.id, group!.id));
    expect(after!.deletedAt).not.toBeNull();
  });

  it('412 when the user changed after If-Unmodified-Since', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.delete(`/users/${user.id}`, { token, headers: { 'if-unmodified-since': new Date(Date.now() - 3_600_000).toUTCString() } });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: '412 Precondition Failed' });
  });

  it('404 for unknown users', async () => {
    const { token } = await createAdmin();
    const res = await api.delete('/users/0', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 User Not Found' });
  });

  it(':id is a number: out-of-range ids are 404 User Not Found, a username matches no route (the user stays)', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    for (const ref of ['99999999999', '2147483648']) {
      const res = await api.delete(`/users/${ref}`, { token });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
    for (const ref of [user.username, '-5']) {
      const res = await api.delete(`/users/${ref}`, { token });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
      // Anonymous callers too: an unknown route is not an endpoint that wants authentication.
      expect((await api.delete(`/users/${ref}`)).body).toEqual({ error: '404 Not Found' });
    }
    expect(await db().select({ id: users.id }).from(users).where(eq(users.id, user.id))).toEqual([{ id: user.id }]);
  });

  it('hard_delete hides every subgroup and project below a solely owned group, whoever else owns them', async () => {
    const { user: a, token: aToken } = await createUser();
    const { user: b } = await createUser();
    const { token } = await createAdmin();
    const group = await createGroup(aToken, { visibility: 'public' });
    const subgroup = await createGroup(aToken, { parentId: group.id, visibility: 'public' });
    await addMember(aToken, 'groups', subgroup.id, b.id, 50);
    const project = await createProject(aToken, { namespaceId: subgroup.id, visibility: 'public' });
    expect((await api.get(`/groups/${subgroup.id}`)).status).toBe(200);
    expect((await api.get(`/projects/${project.id}`)).status).toBe(200);

    expect((await api.delete(`/users/${a.id}`, { token })).status).toBe(409);
    expect((await api.delete(`/users/${a.id}`, { token, query: { hard_delete: true } })).status).toBe(204);
    for (const id of [group.id, subgroup.id]) {
      const res = await api.get(`/groups/${id}`);
      expect(res.status, String(id)).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
    const gone = await api.get(`/projects/${project.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Project Not Found' });
    // The other owner of the subgroup loses it too (GitLab destroys the whole tree).
    const rows = await db().select({ id: namespaces.id, deletedAt: namespaces.deletedAt }).from(namespaces).where(eq(namespaces.parentId, group.id));
    expect(rows).toEqual([{ id: subgroup.id, deletedAt: expect.any(Date) }]);
  });

  it('an expired Owner membership is no owner: the only active owner is still the sole owner (409, nothing changes)', async () => {
    const { user: c, token: cToken } = await createUser();
    const { user: b } = await createUser();
    const { token } = await createAdmin();
    const group = await createGroup(cToken);
    await db().insert(members).values({ sourceType: 'Namespace', sourceId: group.id, userId: b.id, accessLevel: 50, expiresAt: '2000-01-01' });
    const res = await api.delete(`/users/${c.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
    const [row] = await db().select().from(namespaces).where(eq(namespaces.id, group.id));
    expect(row!.deletedAt).toBeNull();
    expect(await db().select({ id: users.id }).from(users).where(eq(users.id, c.id))).toEqual([{ id: c.id }]);
    expect((await api.get(`/groups/${group.id}`, { token: cToken })).status).toBe(200);
  });

  it("the user's own expired Owner membership does not make them a sole owner (204, the group stays)", async () => {
    const { user: c } = await createUser();
    const { token } = await createAdmin();
    const path = unique('grp');
    const [group] = await db().insert(namespaces).values({ kind: 'group', name: path, path, fullPath: path }).returning();
    await db()
      .update(namespaces)
      .set({ traversalIds: [group!.id] })
      .where(eq(namespaces.id, group!.id));
    await db().insert(members).values({ sourceType: 'Namespace', sourceId: group!.id, userId: c.id, accessLevel: 50, expiresAt: '2000-01-01' });
    expect((await api.delete(`/users/${c.id}`, { token })).status).toBe(204);
    const [row] = await db().select().from(namespaces).where(eq(namespaces.id, group!.id));
    expect(row!.deletedAt).toBeNull();
  });

  it('the projects the user starred lose their star (star_count follows the stars)', async () => {
    const { user: fan, token: fanToken } = await createUser();
    const { token: otherFan } = await createUser();
    const { token: ownerToken } = await createUser();
    const { token } = await createAdmin();
    const one = await createProject(ownerToken, { visibility: 'public' });
    const two = await createProject(ownerToken, { visibility: 'public' });
    for (const p of [one, two]) expect((await api.post(`/projects/${p.id}/star`, { token: fanToken })).status).toBe(201);
    expect((await api.post(`/projects/${one.id}/star`, { token: otherFan })).status).toBe(201);
    expect((await api.get(`/projects/${one.id}`)).body.star_count).toBe(2);
    expect((await api.delete(`/users/${fan.id}`, { token })).status).toBe(204);
    expect((await api.get(`/projects/${one.id}`)).body.star_count).toBe(1);
    expect((await api.get(`/projects/${two.id}`)).body.star_count).toBe(0);
    const starrers = await api.get(`/projects/${one.id}/starrers`);
    expect(starrers.body).toHaveLength(1);
  });
});
