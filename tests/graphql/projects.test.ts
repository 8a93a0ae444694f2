// GraphQL projects: project(fullPath) and projects(...) with the Project type (13.6 shapes), visibility for anonymous,
// non-member and member callers, project members with access levels, keyset paging both ways, and the query budget
// of a projects page.
import { describe, expect, it } from 'vitest';
import { createIssue } from '../factories/issues.ts';
import { addMember, createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { queryCount, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;

describe('Query.project', () => {
  it('a private project is null for anonymous callers and non-members, data for members; a public one for everyone', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const priv = await createProject(owner.token, { visibility: 'private' });
    const pub = await createProject(owner.token, { visibility: 'public' });
    const query = 'query($p: ID!) { project(fullPath: $p) { id fullPath } }';
    const ask = (path: string, token?: string) => gql(query, { token, variables: { p: path } });

    expect((await ask(priv.path_with_namespace)).body).toEqual({ data: { project: null } });
    expect((await ask(priv.path_with_namespace, stranger.token)).body).toEqual({ data: { project: null } });
    expect((await ask(priv.path_with_namespace, owner.token)).body).toEqual({
      data: { project: { id: gid('Project', priv.id), fullPath: priv.path_with_namespace } },
    });
    // Full paths are looked up without regard to case.
    expect((await ask(priv.path_with_namespace.toUpperCase(), owner.token)).body.data.project.id).toBe(gid('Project', priv.id));
    expect((await ask(pub.path_with_namespace)).body).toEqual({ data: { project: { id: gid('Project', pub.id), fullPath: pub.path_with_namespace } } });
    expect((await ask(pub.path_with_namespace, stranger.token)).body.data.project.fullPath).toBe(pub.path_with_namespace);
    expect((await ask('no/such-project')).body).toEqual({ data: { project: null } });
  });

  it('answers every core field (exact body), with the permissions the policy gives each caller', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public', name: 'Acme Corp', path: `acme-${owner.user.id}` });
    const p = await createProject(owner.token, {
      namespaceId: group.id,
      visibility: 'public',
      name: `Rocket ${owner.user.id}`,
      path: `rocket-${owner.user.id}`,
    });
    await createIssue(owner.token, p.id, { title: 'open' });
    await createIssue(owner.token, p.id, { title: 'secret', confidential: true });
    const query = `query($p: ID!) { project(fullPath: $p) {
      id name path fullPath nameWithNamespace description descriptionHtml visibility webUrl httpUrlToRepo sshUrlToRepo avatarUrl
      createdAt lastActivityAt archived starCount forksCount openIssuesCount
      issuesEnabled mergeRequestsEnabled snippetsEnabled wikiEnabled jobsEnabled
      namespace { id name path fullName fullPath description visibility }
      group { id fullPath fullName }
      userPermissions { adminOperations adminProject createIssue createProjectSnippet downloadCode forkProject readProject readProjectMember removeProject }
    } }`;
    const res = await gql(query, { token: owner.token, variables: { p: p.path_with_namespace } });
    expect(res.body).toEqual({
      data: {
        project: {
          id: gid('Project', p.id),
          name: p.name,
          path: p.path,
          fullPath: `${group.full_path}/${p.path}`,
          nameWithNamespace: `Acme Corp / ${p.name}`,
          description: '',
          descriptionHtml: '',
          visibility: 'public',
          webUrl: `${TEST_PUBLIC_URL}/${group.full_path}/${p.path}`,
          httpUrlToRepo: `${TEST_PUBLIC_URL}/${group.full_path}/${p.path}.git`,
          sshUrlToRepo: `git@gitlab.example.test:${group.full_path}/${p.path}.git`,
          avatarUrl: null,
          createdAt: p.created_at,
          lastActivityAt: expect.any(String),
          archived: false,
          starCount: 0,
          forksCount: 0,
          openIssuesCount: 2,
          issuesEnabled: true,
          mergeRequestsEnabled: true,
          snippetsEnabled: true,
          wikiEnabled: true,
          jobsEnabled: true,
          namespace: {
            id: gid('Group', group.id),
            name: 'Acme Corp',
            path: group.path,
            fullName: 'Acme Corp',
            fullPath: group.full_path,
            description: '',
            visibility: 'public',
          },
          group: { id: gid('Group', group.id), fullPath: group.full_path, fullName: 'Acme Corp' },
          userPermissions: {
            adminOperations: true,
            adminProject: true,
            createIssue: true,
            createProjectSnippet: true,
            downloadCode: true,
            forkProject: true,
            readProject: true,
            readProjectMember: true,
            removeProject: true,
          },
        },
      },
    });
    expect(Date.parse(res.body.data.project.lastActivityAt)).not.toBeNaN();

    // Anonymous: the same project, no confidential issue counted, read-only permissions.
    const anon = await gql(
      `query($p: ID!) { project(fullPath: $p) { openIssuesCount userPermissions { readProject readProjectMember downloadCode createIssue forkProject adminProject removeProject createProjectSnippet adminOperations } } }`,
      {
        variables: { p: p.path_with_namespace },
      },
    );
    expect(anon.body).toEqual({
      data: {
        project: {
          openIssuesCount: 1,
          userPermissions: {
            readProject: true,
            readProjectMember: true,
            downloadCode: true,
            createIssue: false,
            forkProject: false,
            adminProject: false,
            removeProject: false,
            createProjectSnippet: false,
            adminOperations: false,
          },
        },
      },
    });
  });

  it('a personal project: namespace is the user namespace, group is null; nested groups give full names', async () => {
    const owner = await createUser();
    const personal = await createProject(owner.token, { visibility: 'private' });
    let res = await gql('query($p: ID!) { project(fullPath: $p) { nameWithNamespace namespace { id fullPath fullName } group { id } } }', {
      token: owner.token,
      variables: { p: personal.path_with_namespace },
    });
    const ns = personal.namespace;
    expect(res.body).toEqual({
      data: {
        project: {
          nameWithNamespace: `${owner.user.name} / ${personal.name}`,
          namespace: { id: gid('Namespace', ns.id), fullPath: owner.user.username, fullName: owner.user.name },
          group: null,
        },
      },
    });

    const top = await createGroup(owner.token, { name: 'Top' });
    const sub = await createGroup(owner.token, { name: 'Sub', parentId: top.id });
    const nested = await createProject(owner.token, { namespaceId: sub.id, name: 'Deep' });
    res = await gql('query($p: ID!) { project(fullPath: $p) { nameWithNamespace namespace { fullName } group { fullName parent { fullPath } } } }', {
      token: owner.token,
      variables: { p: nested.path_with_namespace },
    });
    expect(res.body).toEqual({
      data: {
        project: {
          nameWithNamespace: 'Top / Sub / Deep',
          namespace: { fullName: 'Top / Sub' },
          group: { fullName: 'Top / Sub', parent: { fullPath: top.full_path } },
        },
      },
    });
  });
});

describe('Project.projectMembers', () => {
  it('lists direct and inherited members with access levels; relations narrow; hidden projects answer null', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const reporter = await createUser();
    const group = await createGroup(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
    const p = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    const devMember = await addMember(owner.token, 'projects', p.id, dev.user.id, 30, '2099-12-31');
    const query = `query($p: ID!, $r: [ProjectMemberRelation!]) { project(fullPath: $p) { projectMembers(relations: $r) {
      nodes { __typename id accessLevel { integerValue stringValue } expiresAt user { username } createdBy { username }
        ... on ProjectMember { project { fullPath } } }
    } } }`;
    const res = await gql(query, { token: dev.token, variables: { p: p.path_with_namespace } });
    const nodes = res.body.data.project.projectMembers.nodes;
    expect(nodes).toHaveLength(3);
    // Ordered by membership id: the group's owner and reporter (inherited, GroupMember), then the project's developer.
    expect(nodes).toEqual([
      {
        __typename: 'GroupMember',
        id: expect.stringMatching(/^gid:\/\/gitlab\/GroupMember\/\d+$/),
        accessLevel: { integerValue: 50, stringValue: 'OWNER' },
        expiresAt: null,
        user: { username: owner.user.username },
        createdBy: { username: owner.user.username },
      },
      {
        __typename: 'GroupMember',
        id: expect.stringMatching(/^gid:\/\/gitlab\/GroupMember\/\d+$/),
        accessLevel: { integerValue: 20, stringValue: 'REPORTER' },
        expiresAt: null,
        user: { username: reporter.user.username },
        createdBy: { username: owner.user.username },
      },
      {
        __typename: 'ProjectMember',
        id: expect.stringMatching(/^gid:\/\/gitlab\/ProjectMember\/\d+$/),
        accessLevel: { integerValue: 30, stringValue: 'DEVELOPER' },
        expiresAt: devMember.expires_at,
        user: { username: dev.user.username },
        createdBy: { username: owner.user.username },
        project: { fullPath: p.path_with_namespace },
      },
    ]);

    const direct = await gql(query, { token: dev.token, variables: { p: p.path_with_namespace, r: ['DIRECT'] } });
    expect(direct.body.data.project.projectMembers.nodes.map((n: any) => n.user.username)).toEqual([dev.user.username]);
    const inherited = await gql(query, { token: dev.token, variables: { p: p.path_with_namespace, r: ['INHERITED'] } });
    expect(inherited.body.data.project.projectMembers.nodes.map((n: any) => n.user.username)).toEqual([owner.user.username, reporter.user.username]);

    const search = await gql(
      'query($p: ID!) { project(fullPath: $p) { projectMembers(search: $s) { nodes { user { username } } } } }'.replace('$p: ID!', '$p: ID!, $s: String'),
      {
        token: dev.token,
        variables: { p: p.path_with_namespace, s: reporter.user.username },
      },
    );
    expect(search.body.data.project.projectMembers.nodes).toEqual([{ user: { username: reporter.user.username } }]);

    // A stranger does not see the private project at all.
    expect((await gql(query, { token: (await createUser()).token, variables: { p: p.path_with_namespace } })).body).toEqual({ data: { project: null } });
  });

  it('anonymous callers read the members of a public project', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const res = await gql(
      'query($p: ID!) { project(fullPath: $p) { projectMembers { nodes { accessLevel { integerValue stringValue } user { username } } } } }',
      { variables: { p: p.path_with_namespace } },
    );
    expect(res.body).toEqual({
      data: { project: { projectMembers: { nodes: [{ accessLevel: { integerValue: 50, stringValue: 'OWNER' }, user: { username: owner.user.username } }] } } },
    });
  });
});

describe('Query.projects', () => {
  it('pages forwards and backwards with cursors (id desc by default, asc on request)', async () => {
    const owner = await createUser();
    const made: Array<Awaited<ReturnType<typeof createProject>>> = [];
    for (let i = 0; i < 5; i++) made.push(await createProject(owner.token));
    const ids = made.map((p) => p.id).sort((a, b) => b - a);
    const query = `query($first: Int, $last: Int, $after: String, $before: String, $sort: String) {
      projects(membership: true, first: $first, last: $last, after: $after, before: $before, sort: $sort) {
        edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const page = async (variables: Record<string, unknown>) => (await gql(query, { token: owner.token, variables })).body.data.projects;
    const idsOf = (conn: any) => conn.nodes.map((n: any) => Number(n.id.split('/').pop()));

    const p1 = await page({ first: 2 });
    expect(idsOf(p1)).toEqual(ids.slice(0, 2));
    expect(p1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: p1.edges[0].cursor, endCursor: p1.edges[1].cursor });
    expect(JSON.parse(Buffer.from(p1.pageInfo.endCursor, 'base64').toString())).toEqual({ id: String(ids[1]) });

    const p2 = await page({ first: 2, after: p1.pageInfo.endCursor });
    expect(idsOf(p2)).toEqual(ids.slice(2, 4));
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await page({ first: 2, after: p2.pageInfo.endCursor });
    expect(idsOf(p3)).toEqual(ids.slice(4));
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    // Backwards: the last two, then the two before them.
    const b1 = await page({ last: 2 });
    expect(idsOf(b1)).toEqual(ids.slice(3));
    expect(b1.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const b2 = await page({ last: 2, before: b1.pageInfo.startCursor });
    expect(idsOf(b2)).toEqual(ids.slice(1, 3));
    expect(b2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const b3 = await page({ last: 2, before: b2.pageInfo.startCursor });
    expect(idsOf(b3)).toEqual(ids.slice(0, 1));
    expect(b3.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const asc = await page({ first: 3, sort: 'id_asc' });
    expect(idsOf(asc)).toEqual([...ids].reverse().slice(0, 3));

    const bad = await gql(query, { token: owner.token, variables: { first: 1, after: 'not-a-cursor' } });
    expect(bad.body.errors[0].message).toBe('Please provide a valid cursor');
  });

  it('shows only visible projects; ids, search and searchNamespaces filter', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public', path: `zebra-${owner.user.id}` });
    const pub = await createProject(owner.token, { namespaceId: group.id, visibility: 'public', name: `Giraffe ${owner.user.id}` });
    const priv = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    const query = 'query($ids: [ID!], $search: String, $sn: Boolean) { projects(ids: $ids, search: $search, searchNamespaces: $sn) { nodes { id } } }';
    const ids = [gid('Project', pub.id), gid('Project', priv.id)];

    expect((await gql(query, { variables: { ids } })).body).toEqual({ data: { projects: { nodes: [{ id: ids[0] }] } } });
    expect((await gql(query, { token: (await createUser()).token, variables: { ids } })).body).toEqual({ data: { projects: { nodes: [{ id: ids[0] }] } } });
    expect((await gql(query, { token: owner.token, variables: { ids } })).body).toEqual({ data: { projects: { nodes: [{ id: ids[1] }, { id: ids[0] }] } } });

    expect((await gql(query, { variables: { search: `Giraffe ${owner.user.id}` } })).body.data.projects.nodes).toEqual([{ id: ids[0] }]);
    // The group's path matches only when namespaces are searched too.
    expect((await gql(query, { token: owner.token, variables: { search: `zebra-${owner.user.id}` } })).body.data.projects.nodes).toEqual([]);
    expect((await gql(query, { token: owner.token, variables: { search: `zebra-${owner.user.id}`, sn: true } })).body.data.projects.nodes).toEqual([
      { id: ids[1] },
      { id: ids[0] },
    ]);

    const wrong = await gql(query, { variables: { ids: ['gid://gitlab/Issue/1'] } });
    expect(wrong.body.errors[0].message).toBe('"gid://gitlab/Issue/1" is not a valid id for Project.');
  });

  it('a page of projects with their namespaces costs a constant number of queries (3 and 30 projects)', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token);
    const groups = [top, await createGroup(owner.token, { parentId: top.id }), await createGroup(owner.token)];
    const query = '{ projects(first: 100) { nodes { fullPath namespace { fullPath } } } }';
    // Every association of the page: one batched query each (groups, full names of nested namespaces, open issues).
    const wide =
      '{ projects(first: 100) { nodes { fullPath nameWithNamespace namespace { fullPath fullName } group { fullPath parent { fullPath } } openIssuesCount userPermissions { readProject } } } }';
    const counts: number[] = [];
    const wideCounts: number[] = [];
    let made = 0;
    for (const target of [3, 30]) {
      while (made < target)
        await createProject(owner.token, { namespaceId: made % 4 === 3 ? undefined : groups[made % 3]!.id, name: `budget ${owner.user.id} ${made++}` });
      const res = await gql(query, { token: owner.token });
      expect(res.status).toBe(200);
      const mine = res.body.data.projects.nodes.filter((n: any) => n.fullPath.includes(`budget-${owner.user.id}-`));
      expect(mine.length).toBe(target);
      for (const n of mine) expect(n.fullPath.startsWith(`${n.namespace.fullPath}/`)).toBe(true);
      counts.push(queryCount(res));
      const wideRes = await gql(wide, { token: owner.token });
      expect(wideRes.body.errors).toBeUndefined();
      wideCounts.push(queryCount(wideRes));
    }
    // Authentication (the token) and the page.
    expect(counts).toEqual([2, 2]);
    // ... plus one query each for the groups (their parents are among them), nested full names and open issues: 5.
    // Over the networked driver a loader's keys can arrive in two ticks (one more query), never one per project.
    for (const n of wideCounts) expect(n).toBeGreaterThanOrEqual(5);
    for (const n of wideCounts) expect(n).toBeLessThanOrEqual(6);
    // Anonymous: the page query alone.
    expect(queryCount(await gql(query))).toBeLessThanOrEqual(1);
  });
});
