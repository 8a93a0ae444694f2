// Sharing projects and groups with groups (GitLab 13.6's POST/DELETE /projects/:id/share and /groups/:id/share):
// the shared group's members, direct or inherited, get the link's level or their own where lower, through the one
// policy module, so REST, GraphQL and the git transport agree; an expired or deleted link grants nothing.
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { groupGroupLinks, projectGroupLinks } from '../../../db/schema/index.ts';
import { api, appFetch, testDb, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { gql } from '../../graphql/helpers.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

/** git's discovery request for a fetch or a push, with the user's token as password. */
async function gitDiscover(path: string, op: 'fetch' | 'push', user: { username: string; token: string }) {
  const service = op === 'fetch' ? 'git-upload-pack' : 'git-receive-pack';
  const res = await appFetch(`${TEST_PUBLIC_URL}/${path}.git/info/refs?service=${service}`, {
    headers: { authorization: `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}` },
  });
  return [res.status, res.status === 200 ? '' : await res.text()];
}

const graphqlProject = async (fullPath: string, token: string) =>
  (await gql<{ data: { project: { id: string } | null } }>(`query($p: ID!) { project(fullPath: $p) { id } }`, { token, variables: { p: fullPath } })).body.data
    .project;

async function fixture() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  const team = await createGroup(owner.token);
  const sub = await createGroup(owner.token, { parentId: team.id });
  const member = await createUser();
  await addMember(owner.token, 'groups', sub.id, member.user.id, MAINTAINER);
  const parentMember = await createUser();
  await addMember(owner.token, 'groups', team.id, parentMember.user.id, DEVELOPER);
  return { owner, project, team, sub, member: { ...member, username: member.user.username }, parentMember };
}

describe('sharing a project with a group', () => {
  it('201 with the link; members of the group and of its ancestors read the project at the lower level, in REST, GraphQL and git', async () => {
    const fx = await fixture();
    const { project, member } = fx;
    expect((await api.get(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
    expect(await graphqlProject(project.path_with_namespace, member.token)).toBeNull();
    expect(await gitDiscover(project.path_with_namespace, 'fetch', member)).toEqual([404, 'The project you were looking for could not be found.\n']);

    const res = await api.post(`/projects/${project.id}/share`, { token: fx.owner.token, body: { group_id: fx.sub.id, group_access: REPORTER } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), project_id: project.id, group_id: fx.sub.id, group_access: REPORTER, expires_at: null });

    const read = await api.get(`/projects/${project.id}`, { token: member.token });
    expect(read.status).toBe(200);
    expect(read.body.shared_with_groups).toEqual([
      { group_id: fx.sub.id, group_name: fx.sub.name, group_full_path: fx.sub.full_path, group_access_level: REPORTER, expires_at: null },
    ]);
    expect(await graphqlProject(project.path_with_namespace, member.token)).toEqual({ id: `gid://gitlab/Project/${project.id}` });
    // A reporter reads the code and may not push: the member's Maintainer role is capped by the link.
    expect(await gitDiscover(project.path_with_namespace, 'fetch', member)).toEqual([200, '']);
    expect(await gitDiscover(project.path_with_namespace, 'push', member)).toEqual([403, 'You are not allowed to push code to this project.\n']);
    const listed = await api.get('/projects', { token: member.token, query: { membership: true } });
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await api.get('/projects', { token: member.token, query: { min_access_level: DEVELOPER } })).body).toEqual([]);
    // Reporters manage labels; they may not change the project.
    expect((await api.post(`/projects/${project.id}/labels`, { token: member.token, body: { name: 'shared', color: '#ff0000' } })).status).toBe(201);
    expect((await api.put(`/projects/${project.id}`, { token: member.token, body: { description: 'x' } })).status).toBe(403);

    // The parent group's developer inherits the subgroup's membership, so the link too.
    expect((await api.get(`/projects/${project.id}`, { token: fx.parentMember.token })).status).toBe(200);

    // The group's own view lists the shared project (with_shared, GroupDetail's shared_projects).
    const groupProjects = await api.get(`/groups/${fx.sub.id}/projects`, { token: member.token });
    expect(groupProjects.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await api.get(`/groups/${fx.sub.id}/projects`, { token: member.token, query: { with_shared: false } })).body).toEqual([]);
    const detail = await api.get(`/groups/${fx.sub.id}`, { token: member.token });
    expect(detail.body.shared_projects.map((p: { id: number }) => p.id)).toEqual([project.id]);

    // Unsharing takes it all back.
    expect((await api.delete(`/projects/${project.id}/share/${fx.sub.id}`, { token: fx.owner.token })).status).toBe(204);
    expect((await api.get(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
    expect(await gitDiscover(project.path_with_namespace, 'fetch', member)).toEqual([404, 'The project you were looking for could not be found.\n']);
    const again = await api.delete(`/projects/${project.id}/share/${fx.sub.id}`, { token: fx.owner.token });
    expect([again.status, again.body]).toEqual([404, { message: '404 Group Link Not Found' }]);
  });

  it('a guest of the group gets guest access through a Maintainer link; an expired link grants nothing', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const group = await createGroup(owner.token);
    const guest = await createUser();
    await addMember(owner.token, 'groups', group.id, guest.user.id, GUEST);
    await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: MAINTAINER } });
    expect((await api.get(`/projects/${project.id}`, { token: guest.token })).status).toBe(200);
    // Guests of a private project do not read its code.
    expect(await gitDiscover(project.path_with_namespace, 'fetch', { ...guest, username: guest.user.username })).toEqual([
      403,
      'You are not allowed to download code from this project.\n',
    ]);

    const other = await createProject(owner.token, { visibility: 'private' });
    const expired = await api.post(`/projects/${other.id}/share`, {
      token: owner.token,
      body: { group_id: group.id, group_access: MAINTAINER, expires_at: '2020-01-01' },
    });
    expect([expired.status, expired.body.expires_at]).toEqual([201, '2020-01-01']);
    expect((await api.get(`/projects/${other.id}`, { token: guest.token })).status).toBe(404);
  });

  it("refuses the project's own group and its ancestors, a second link, a group the caller cannot see, and a locked namespace", async () => {
    const owner = await createUser();
    const parent = await createGroup(owner.token);
    const child = await createGroup(owner.token, { parentId: parent.id });
    const project = await createProject(owner.token, { namespaceId: child.id });
    for (const group of [child, parent]) {
      const res = await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: DEVELOPER } });
      expect([res.status, res.body]).toEqual([409, { message: 'Project cannot be shared with the group it is in or one of its ancestors.' }]);
    }
    const elsewhere = await createGroup(owner.token);
    expect((await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: elsewhere.id, group_access: DEVELOPER } })).status).toBe(
      201,
    );
    const twice = await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: elsewhere.id, group_access: GUEST } });
    expect([twice.status, twice.body]).toEqual([409, { message: 'Group already shared with this group' }]);
    const hidden = await createGroup((await createUser()).token);
    const unseen = await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: hidden.id, group_access: GUEST } });
    expect([unseen.status, unseen.body]).toEqual([404, { message: 'Not Found' }]);

    await api.put(`/groups/${child.id}`, { token: owner.token, body: { share_with_group_lock: true } });
    const locked = await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: hidden.id, group_access: GUEST } });
    expect([locked.status, locked.body]).toEqual([400, { message: '400 Bad request - The project sharing with group is disabled' }]);
  });

  it.each([
    [{ group_access: 30 }, 'group_id is missing'],
    [{ group_id: 1 }, 'group_access is missing'],
    [{ group_id: 1, group_access: 50 }, 'group_access does not have a valid value'],
    [{ group_id: 'x', group_access: 30 }, 'group_id is invalid'],
    [{ group_id: 1, group_access: 30, expires_at: 'soon' }, 'expires_at is invalid'],
  ])('400 for %j, and nothing is written', async (body, error) => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const res = await api.post(`/projects/${project.id}/share`, { token: owner.token, body });
    expect([res.status, res.body]).toEqual([400, { error }]);
    const [row] = await testDb().db.select({ n: count() }).from(projectGroupLinks).where(eq(projectGroupLinks.projectId, project.id));
    expect(row!.n).toBe(0);
  });

  it('concurrent identical shares: one 201, the others 409, one link', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: GUEST } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const [row] = await testDb().db.select({ n: count() }).from(projectGroupLinks).where(eq(projectGroupLinks.projectId, project.id));
    expect(row!.n).toBe(1);
  });

  describeAuthorization('POST /projects/:id/share', {
    fixture: async () => {
      const owner = await createUser();
      const project = await createProject(owner.token, { visibility: 'public' });
      const group = await createGroup(owner.token, { visibility: 'public' });
      const developer = await createUser();
      await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
      return { allowed: owner.token, id: project.id, groupId: group.id, nonMember: (await createUser()).token, insufficientRole: developer.token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/share`, { token, body: { group_id: fx.groupId, group_access: REPORTER } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });

  describeAuthorization('DELETE /projects/:id/share/:group_id (a private project)', {
    fixture: async () => {
      const owner = await createUser();
      const project = await createProject(owner.token);
      const group = await createGroup(owner.token);
      await api.post(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: REPORTER } });
      const developer = await createUser();
      await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
      return { allowed: owner.token, id: project.id, groupId: group.id, nonMember: (await createUser()).token, insufficientRole: developer.token };
    },
    call: (fx, token) => api.delete(`/projects/${fx.id}/share/${fx.groupId}`, { token }),
    success: 204,
    nonMember: { status: 404, body: { message: '404 Project Not Found' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('sharing a group with a group', () => {
  it("201 with the shared group's detail; the other group's members get the lower level on it, its subgroups and projects", async () => {
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const below = await createGroup(owner.token, { parentId: shared.id });
    const project = await createProject(owner.token, { namespaceId: below.id });
    const team = await createGroup(owner.token);
    const member = await createUser();
    await addMember(owner.token, 'groups', team.id, member.user.id, OWNER);
    expect((await api.get(`/groups/${shared.id}`, { token: member.token })).status).toBe(404);

    const res = await api.post(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: DEVELOPER } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: shared.id, full_path: shared.full_path });
    expect(res.body.shared_with_groups).toEqual([
      { group_id: team.id, group_name: team.name, group_full_path: team.full_path, group_access_level: DEVELOPER, expires_at: null },
    ]);

    expect((await api.get(`/groups/${below.id}`, { token: member.token })).status).toBe(200);
    expect((await api.get('/groups', { token: member.token, query: { min_access_level: DEVELOPER } })).body.map((g: { id: number }) => g.id).sort()).toEqual(
      [shared.id, below.id, team.id].sort(),
    );
    const gitUser = { username: member.user.username, token: member.token };
    expect(await gitDiscover(project.path_with_namespace, 'push', gitUser)).toEqual([200, '']);
    expect(await graphqlProject(project.path_with_namespace, member.token)).toEqual({ id: `gid://gitlab/Project/${project.id}` });
    // Developer, not Owner: the group's settings stay with its owners.
    expect((await api.put(`/groups/${shared.id}`, { token: member.token, body: { description: 'x' } })).status).toBe(403);

    const twice = await api.post(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: GUEST } });
    expect([twice.status, twice.body]).toEqual([409, { message: 'Shared group The group has already been shared with this group' }]);

    expect((await api.delete(`/groups/${shared.id}/share/${team.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/groups/${shared.id}`, { token: member.token })).status).toBe(404);
    expect(await gitDiscover(project.path_with_namespace, 'push', gitUser)).toEqual([404, 'The project you were looking for could not be found.\n']);
    const again = await api.delete(`/groups/${shared.id}/share/${team.id}`, { token: owner.token });
    expect([again.status, again.body]).toEqual([404, { message: '404 Not Found' }]);
  });

  it('only the shared group\'s owners share it (404 "Not Found" otherwise, as GitLab answers); a group the caller cannot see is 404', async () => {
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', shared.id, maintainer.user.id, MAINTAINER);
    const team = await createGroup(maintainer.token);
    const res = await api.post(`/groups/${shared.id}/share`, { token: maintainer.token, body: { group_id: team.id, group_access: GUEST } });
    expect([res.status, res.body]).toEqual([404, { message: 'Not Found' }]);
    const hidden = await createGroup((await createUser()).token);
    const unseen = await api.post(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: hidden.id, group_access: GUEST } });
    expect([unseen.status, unseen.body]).toEqual([404, { message: '404 Group Not Found' }]);
    const bad = await api.post(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 60 } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'group_access does not have a valid value' }]);
    const [row] = await testDb().db.select({ n: count() }).from(groupGroupLinks).where(eq(groupGroupLinks.sharedGroupId, shared.id));
    expect(row!.n).toBe(0);
    const anonymous = await api.post(`/groups/${shared.id}/share`, { body: { group_id: team.id, group_access: GUEST } });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});
