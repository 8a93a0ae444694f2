// GraphQL groups and namespaces: group(fullPath) and namespace(fullPath) with the Group and Namespace types (13.6
// shapes), visibility, group members with access levels and paging, and a group's projects (with subgroups).
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createAdmin, createUser } from '../factories/users.ts';
import { queryCount, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;

describe('Query.group', () => {
  it('a private group is null for anonymous callers and strangers; members (also of a subgroup) see it; public for everyone', async () => {
    const owner = await createUser();
    const subMember = await createUser();
    const priv = await createGroup(owner.token, { visibility: 'private' });
    const sub = await createGroup(owner.token, { visibility: 'private', parentId: priv.id });
    await addMember(owner.token, 'groups', sub.id, subMember.user.id, 10);
    const pub = await createGroup(owner.token, { visibility: 'public' });
    const ask = (path: string, token?: string) => gql('query($g: ID!) { group(fullPath: $g) { id fullPath } }', { token, variables: { g: path } });

    expect((await ask(priv.full_path)).body).toEqual({ data: { group: null } });
    expect((await ask(priv.full_path, (await createUser()).token)).body).toEqual({ data: { group: null } });
    expect((await ask(priv.full_path, owner.token)).body).toEqual({ data: { group: { id: gid('Group', priv.id), fullPath: priv.full_path } } });
    expect((await ask(priv.full_path, subMember.token)).body).toEqual({ data: { group: { id: gid('Group', priv.id), fullPath: priv.full_path } } });
    expect((await ask(pub.full_path)).body).toEqual({ data: { group: { id: gid('Group', pub.id), fullPath: pub.full_path } } });
    expect((await ask('no-such-group')).body).toEqual({ data: { group: null } });
  });

  it('answers every core field (exact body)', async () => {
    const owner = await createUser();
    const parent = await createGroup(owner.token, { visibility: 'public', name: 'Parent Org', path: `parent-${owner.user.id}` });
    const group = await createGroup(owner.token, {
      visibility: 'public',
      name: 'Child Team',
      path: `child-${owner.user.id}`,
      parentId: parent.id,
      description: 'We <3 code',
    });
    const p1 = await createProject(owner.token, { namespaceId: group.id, visibility: 'public' });
    const p2 = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    const query = `query($g: ID!) { group(fullPath: $g) {
      id name path fullName fullPath description descriptionHtml visibility webUrl avatarUrl
      parent { id fullPath fullName parent { id } }
      userPermissions { readGroup }
      projects { nodes { fullPath } pageInfo { hasNextPage hasPreviousPage } }
      groupMembers { nodes { __typename accessLevel { integerValue stringValue } user { username } group { fullPath } } }
    } }`;
    const res = await gql(query, { token: owner.token, variables: { g: group.full_path } });
    expect(res.body).toEqual({
      data: {
        group: {
          id: gid('Group', group.id),
          name: 'Child Team',
          path: group.path,
          fullName: 'Parent Org / Child Team',
          fullPath: `${parent.full_path}/${group.path}`,
          description: 'We <3 code',
          descriptionHtml: '<p dir="auto">We &lt;3 code</p>',
          visibility: 'public',
          webUrl: `${TEST_PUBLIC_URL}/groups/${parent.full_path}/${group.path}`,
          avatarUrl: null,
          parent: { id: gid('Group', parent.id), fullPath: parent.full_path, fullName: 'Parent Org', parent: null },
          userPermissions: { readGroup: true },
          projects: {
            nodes: [{ fullPath: p2.path_with_namespace }, { fullPath: p1.path_with_namespace }],
            pageInfo: { hasNextPage: false, hasPreviousPage: false },
          },
          // The owner of the parent is inherited; creating the subgroup made them its direct owner too (one node per user).
          groupMembers: {
            nodes: [
              {
                __typename: 'GroupMember',
                accessLevel: { integerValue: 50, stringValue: 'OWNER' },
                user: { username: owner.user.username },
                group: { fullPath: parent.full_path },
              },
            ],
          },
        },
      },
    });

    // Anonymous: the private project is left out of the group's projects.
    const anon = await gql('query($g: ID!) { group(fullPath: $g) { userPermissions { readGroup } projects { nodes { fullPath } } } }', {
      variables: { g: group.full_path },
    });
    expect(anon.body).toEqual({ data: { group: { userPermissions: { readGroup: true }, projects: { nodes: [{ fullPath: p1.path_with_namespace }] } } } });
  });

  it("projects(includeSubgroups, search); a subgroup member sees the subgroup's projects and the parent", async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'private' });
    const sub = await createGroup(owner.token, { visibility: 'private', parentId: top.id });
    const inTop = await createProject(owner.token, { namespaceId: top.id, name: `Alpha ${owner.user.id}` });
    const inSub = await createProject(owner.token, { namespaceId: sub.id, name: `Beta ${owner.user.id}` });
    const query = 'query($g: ID!, $s: Boolean, $q: String) { group(fullPath: $g) { projects(includeSubgroups: $s, search: $q) { nodes { fullPath } } } }';
    const paths = async (variables: Record<string, unknown>, token = owner.token) =>
      (await gql(query, { token, variables: { g: top.full_path, ...variables } })).body.data.group.projects.nodes.map((n: any) => n.fullPath);
    expect(await paths({})).toEqual([inTop.path_with_namespace]);
    expect(await paths({ s: true })).toEqual([inSub.path_with_namespace, inTop.path_with_namespace]);
    expect(await paths({ s: true, q: `Beta ${owner.user.id}` })).toEqual([inSub.path_with_namespace]);

    // A member of the subgroup only sees the top group (through the subgroup) but none of its projects.
    const subMember = await createUser();
    await addMember(owner.token, 'groups', sub.id, subMember.user.id, 30);
    expect(await paths({ s: true }, subMember.token)).toEqual([inSub.path_with_namespace]);
    const parent = await gql('query($g: ID!) { group(fullPath: $g) { parent { fullPath } } }', { token: subMember.token, variables: { g: sub.full_path } });
    expect(parent.body).toEqual({ data: { group: { parent: { fullPath: top.full_path } } } });
  });
});

describe('Group.groupMembers', () => {
  it('direct and inherited members with access levels, paged forwards and backwards with cursors', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'private' });
    const group = await createGroup(owner.token, { visibility: 'private', parentId: top.id });
    const users: Array<Awaited<ReturnType<typeof createUser>>> = [];
    for (const level of [10, 20, 30, 40]) {
      const u = await createUser();
      await addMember(owner.token, 'groups', group.id, u.user.id, level);
      users.push(u);
    }
    // An inherited membership of the top group, higher than the user's direct one below: the higher one counts.
    await addMember(owner.token, 'groups', top.id, users[0]!.user.id, 40);
    const query = `query($g: ID!, $first: Int, $last: Int, $after: String, $before: String, $r: [GroupMemberRelation!]) { group(fullPath: $g) {
      groupMembers(first: $first, last: $last, after: $after, before: $before, relations: $r) {
        nodes { accessLevel { integerValue stringValue } user { username } group { fullPath } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const page = async (variables: Record<string, unknown>) =>
      (await gql(query, { token: users[1]!.token, variables: { g: group.full_path, ...variables } })).body.data.group.groupMembers;
    const all = await page({});
    const summary = (conn: any) => conn.nodes.map((n: any) => [n.user.username, n.accessLevel.stringValue]);
    expect(all.nodes).toHaveLength(5);
    // Ordered by membership id: the owner's oldest (top group) membership, the direct ones, users[0]'s top one.
    expect(summary(all)).toEqual([
      [owner.user.username, 'OWNER'],
      [users[1]!.user.username, 'REPORTER'],
      [users[2]!.user.username, 'DEVELOPER'],
      [users[3]!.user.username, 'MAINTAINER'],
      [users[0]!.user.username, 'MAINTAINER'],
    ]);
    expect(all.nodes.find((n: any) => n.user.username === users[2]!.user.username)).toEqual({
      accessLevel: { integerValue: 30, stringValue: 'DEVELOPER' },
      user: { username: users[2]!.user.username },
      group: { fullPath: group.full_path },
    });

    const f1 = await page({ first: 2 });
    expect(summary(f1)).toEqual(summary(all).slice(0, 2));
    expect(f1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const f2 = await page({ first: 2, after: f1.pageInfo.endCursor });
    expect(summary(f2)).toEqual(summary(all).slice(2, 4));
    const f3 = await page({ first: 2, after: f2.pageInfo.endCursor });
    expect(summary(f3)).toEqual(summary(all).slice(4));
    expect(f3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const b1 = await page({ last: 2 });
    expect(summary(b1)).toEqual(summary(all).slice(3));
    expect(b1.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const b2 = await page({ last: 2, before: b1.pageInfo.startCursor });
    expect(summary(b2)).toEqual(summary(all).slice(1, 3));
    expect(b2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const b3 = await page({ last: 2, before: b2.pageInfo.startCursor });
    expect(summary(b3)).toEqual(summary(all).slice(0, 1));
    expect(b3.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const direct = await page({ r: ['DIRECT'] });
    expect(summary(direct)).toEqual([
      [owner.user.username, 'OWNER'],
      [users[0]!.user.username, 'GUEST'],
      [users[1]!.user.username, 'REPORTER'],
      [users[2]!.user.username, 'DEVELOPER'],
      [users[3]!.user.username, 'MAINTAINER'],
    ]);
    expect(direct.nodes.every((n: any) => n.group.fullPath === group.full_path)).toBe(true);
    const inherited = await page({ r: ['INHERITED'] });
    expect(summary(inherited)).toEqual([
      [owner.user.username, 'OWNER'],
      [users[0]!.user.username, 'MAINTAINER'],
    ]);
    expect(inherited.nodes.every((n: any) => n.group.fullPath === top.full_path)).toBe(true);
  });

  it('anonymous callers read the members of a public group; a hidden group is null', async () => {
    const owner = await createUser();
    const pub = await createGroup(owner.token, { visibility: 'public' });
    const res = await gql('query($g: ID!) { group(fullPath: $g) { groupMembers { nodes { accessLevel { integerValue stringValue } user { username } } } } }', {
      variables: { g: pub.full_path },
    });
    expect(res.body).toEqual({
      data: { group: { groupMembers: { nodes: [{ accessLevel: { integerValue: 50, stringValue: 'OWNER' }, user: { username: owner.user.username } }] } } },
    });
  });
});

describe('Query.namespace', () => {
  it('a group answers as a Namespace with its projects; a personal namespace only to its owner and administrators', async () => {
    const { user, token } = await createUser();
    const admin = await createAdmin();
    const group = await createGroup(token, { visibility: 'public', name: 'Space Team' });
    const gp = await createProject(token, { namespaceId: group.id, visibility: 'public' });
    const pp = await createProject(token, { visibility: 'public' });
    const query =
      'query($n: ID!) { namespace(fullPath: $n) { id name path fullName fullPath description descriptionHtml visibility projects { nodes { fullPath } } } }';

    const g = await gql(query, { variables: { n: group.full_path } });
    expect(g.body).toEqual({
      data: {
        namespace: {
          id: gid('Group', group.id),
          name: 'Space Team',
          path: group.path,
          fullName: 'Space Team',
          fullPath: group.full_path,
          description: '',
          descriptionHtml: '',
          visibility: 'public',
          projects: { nodes: [{ fullPath: gp.path_with_namespace }] },
        },
      },
    });

    const mine = await gql(query, { token, variables: { n: user.username } });
    expect(mine.body).toEqual({
      data: {
        namespace: {
          id: gid('Namespace', pp.namespace.id),
          name: user.name,
          path: user.username,
          fullName: user.name,
          fullPath: user.username,
          description: '',
          descriptionHtml: '',
          // Personal namespaces keep the column's default (GitLab's too).
          visibility: 'public',
          projects: { nodes: [{ fullPath: pp.path_with_namespace }] },
        },
      },
    });
    expect((await gql(query, { token: admin.token, variables: { n: user.username } })).body.data.namespace.fullPath).toBe(user.username);
    expect((await gql(query, { variables: { n: user.username } })).body).toEqual({ data: { namespace: null } });
    expect((await gql(query, { token: (await createUser()).token, variables: { n: user.username } })).body).toEqual({ data: { namespace: null } });
    expect((await gql(query, { variables: { n: 'no-such-namespace' } })).body).toEqual({ data: { namespace: null } });

    const private_ = await createGroup(token, { visibility: 'private' });
    expect((await gql(query, { variables: { n: private_.full_path } })).body).toEqual({ data: { namespace: null } });
  });

  it('a group with its parent and members costs a constant number of queries', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token);
    const group = await createGroup(owner.token, { parentId: top.id });
    const res = await gql(
      'query($g: ID!) { group(fullPath: $g) { fullName parent { fullName } groupMembers { nodes { user { username } createdBy { username } } } } }',
      {
        token: owner.token,
        variables: { g: group.full_path },
      },
    );
    expect(res.body.errors).toBeUndefined();
    // Authentication, the group, its parent, the members page, the members' creators.
    expect(queryCount(res)).toBeLessThanOrEqual(5);
  });
});
