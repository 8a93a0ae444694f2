// Connections nested under lists cost a constant number of queries: Project.issues/issue/label/labels/milestones/
// projectMembers/snippets under a list of projects, Group.projects/groupMembers under a list of groups and
// User.snippets under a list of users cost the same with 2 parents as with 6 (per-request loaders batch the parents
// into one windowed query per page arguments), and each parent's nested connection equals what the single-parent
// query answers (same nodes, same pageInfo and cursors, same visibility).
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createLabel } from '../factories/labels.ts';
import { createMilestone } from '../factories/milestones.ts';
import { createProject } from '../factories/projects.ts';
import { createProjectSnippet, createSnippet } from '../factories/snippets.ts';
import { createUser } from '../factories/users.ts';
import { queryCount } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

interface World {
  viewer: string;
  projects: Array<{ id: number; path: string }>;
  groups: Array<{ id: number; path: string }>;
  authors: Array<{ id: number; username: string }>;
  /** A cursor in the middle of the issues' ids (some projects' issues are all before it, some after). */
  midIssueCursor: string;
}

let world: World;

/**
 * Six private groups, each with two projects; the viewer is a guest of the even groups (confidential issues hidden)
 * and a developer of the odd ones. Project i holds i+2 issues (the first confidential, by the owner), 1-3 labels,
 * 1-2 milestones, 1-2 snippets and, for even i, one more member. Six authors with 1-3 personal snippets each
 * (public and private: the viewer sees the public ones).
 */
async function build(): Promise<World> {
  const owner = await createUser();
  const viewer = await createUser();
  const extra = await createUser();
  const projects: World['projects'] = [];
  const groups: World['groups'] = [];
  const authors: World['authors'] = [];
  let midIssueCursor = '';
  for (let i = 0; i < 6; i++) {
    const group = await createGroup(owner.token, { visibility: 'private' });
    groups.push({ id: group.id, path: group.full_path });
    await addMember(owner.token, 'groups', group.id, viewer.user.id, i % 2 ? 30 : 10);
    const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    projects.push({ id: project.id, path: project.path_with_namespace });
    for (let k = 0; k < i + 2; k++) {
      const issue = await createIssue(owner.token, project.id, { title: `issue ${i}.${k}`, confidential: k === 0 });
      if (i === 3 && k === 2) midIssueCursor = Buffer.from(JSON.stringify({ id: String(issue.id) })).toString('base64');
    }
    for (let k = 0; k <= i % 3; k++) await createLabel(owner.token, 'projects', project.id, { name: `l${k}` });
    for (let k = 0; k <= i % 2; k++) await createMilestone(owner.token, 'projects', project.id, { title: `m${k}` });
    for (let k = 0; k <= i % 2; k++) await createProjectSnippet(owner.token, project.id, { title: `snippet ${i}.${k}`, visibility: 'private' });
    if (i % 2 === 0) await addMember(owner.token, 'projects', project.id, extra.user.id, 20);
    const author = await createUser();
    authors.push({ id: author.user.id, username: author.user.username });
    for (let k = 0; k <= i % 3; k++) await createSnippet(author.token, { title: `personal ${i}.${k}`, visibility: k === 1 ? 'private' : 'public' });
  }
  return { viewer: viewer.token, projects, groups, authors, midIssueCursor };
}

beforeAll(async () => {
  world = await build();
  // The viewer's first request records the token's use (a write): made here, outside the counted requests.
  await gql('{ currentUser { username } }', { token: world.viewer });
}, 120_000);

/** Runs `selection` nested under `n` parents and alone under each of them; returns the nested query's count. */
async function compare(kind: 'project' | 'group' | 'user', select: string | (() => string), n: number) {
  const selection = typeof select === 'string' ? select : select();
  const lists = {
    project: {
      list: `query($ids: [ID!]) { projects(ids: $ids) { nodes { key: fullPath ${selection} } } }`,
      ids: world.projects.slice(0, n).map((p) => gid('Project', p.id)),
      path: (r: any) => r.data.projects.nodes,
    },
    group: {
      list: `query($ids: [ID!]) { projects(ids: $ids) { nodes { group { key: fullPath ${selection} } } } }`,
      ids: world.projects.slice(0, n).map((p) => gid('Project', p.id)),
      path: (r: any) => r.data.projects.nodes.map((p: any) => p.group),
    },
    user: {
      list: `query($ids: [ID!]) { users(ids: $ids) { nodes { key: username ${selection} } } }`,
      ids: world.authors.slice(0, n).map((a) => gid('User', a.id)),
      path: (r: any) => r.data.users.nodes,
    },
  }[kind];
  const res = await gql(lists.list, { token: world.viewer, variables: { ids: lists.ids } });
  expect(res.body.errors).toBeUndefined();
  const nodes: any[] = lists.path(res.body);
  expect(nodes).toHaveLength(n);
  for (const { key, ...nested } of nodes) {
    const single =
      kind === 'project'
        ? await gql(`query($p: ID!) { one: project(fullPath: $p) { ${selection} } }`, { token: world.viewer, variables: { p: key } })
        : kind === 'group'
          ? await gql(`query($p: ID!) { one: group(fullPath: $p) { ${selection} } }`, { token: world.viewer, variables: { p: key } })
          : await gql(`query($p: String!) { one: user(username: $p) { ${selection} } }`, { token: world.viewer, variables: { p: key } });
    expect(single.body.errors).toBeUndefined();
    expect(nested).toEqual(single.body.data.one);
  }
  return { count: queryCount(res), nodes };
}

/**
 * Each case: the nested selection and its exact budget (the same for 2 and 6 parents): the token's lookup and the
 * list (+ the groups' loader for Group cases), then one query per distinct set of page arguments (and counts).
 * Before the loaders (HEAD 200be39) the same cases cost, for 2 / 6 parents: issues 14 / 38, issue+label 10 / 26,
 * projectMembers 4 / 8, Project.snippets 6 / 14, labels 10 / 26, milestones 6 / 14, Group.projects 7 / 15,
 * groupMembers 7 / 15, User.snippets 6 / 14.
 */
const CASES: Array<{ name: string; kind: 'project' | 'group' | 'user'; selection: string | (() => string); queries: number; check?: (nodes: any[]) => void }> =
  [
    {
      name: 'Project.issues with count, forwards and backwards',
      kind: 'project',
      selection: `issues(first: 2) { count nodes { iid title confidential author { username } } ${PAGE_INFO} }
      back: issues(last: 1, sort: created_asc) { count nodes { iid } ${PAGE_INFO} }
      opened: issues(state: opened, first: 3) { count nodes { iid } ${PAGE_INFO} }`,
      // 3 pages + 2 counts (the first two share their filter).
      queries: 7,
      check: (nodes) => {
        // Project 1 (developer): 3 issues, the confidential one too; project 0 (guest): 2 issues, 1 visible.
        const byCount = nodes.map((p) => p.issues.count);
        expect(byCount.slice(0, 2)).toEqual([1, 3]);
        expect(nodes[1].issues.nodes.map((i: any) => i.iid)).toEqual(['3', '2']);
        expect(nodes[1].issues.pageInfo.hasNextPage).toBe(true);
        expect(nodes[0].issues.nodes.map((i: any) => i.iid)).toEqual(['2']);
        expect(nodes[0].issues.pageInfo.hasNextPage).toBe(false);
      },
    },
    {
      name: 'Project.issue(iid) and Project.label(title)',
      kind: 'project',
      selection: 'issue(iid: "1") { iid title } second: issue(iid: "2") { iid } label(title: "l1") { title color } none: label(title: "nope") { title }',
      queries: 5,
    },
    {
      name: 'Project.issues after and before a cursor',
      kind: 'project',
      selection: () => `after: issues(after: "${world.midIssueCursor}", first: 2) { nodes { iid } ${PAGE_INFO} }
      before: issues(before: "${world.midIssueCursor}", last: 2) { nodes { iid } ${PAGE_INFO} }`,
      queries: 4,
    },
    {
      name: 'Project.projectMembers',
      kind: 'project',
      selection: `projectMembers(first: 2) { nodes { user { username } accessLevel { integerValue } } ${PAGE_INFO} }`,
      queries: 3,
    },
    {
      name: 'Project.snippets',
      kind: 'project',
      selection: `snippets(first: 1) { nodes { title } ${PAGE_INFO} } all: snippets { nodes { title } ${PAGE_INFO} }`,
      queries: 4,
    },
    {
      name: 'Project.labels',
      kind: 'project',
      selection: `labels(first: 2) { count nodes { title } ${PAGE_INFO} } searched: labels(searchTerm: "l1") { count nodes { title } }`,
      queries: 6,
    },
    {
      name: 'Project.milestones',
      kind: 'project',
      selection: `milestones(first: 1) { nodes { title } ${PAGE_INFO} } back: milestones(last: 1) { nodes { title } ${PAGE_INFO} }`,
      queries: 4,
    },
    {
      name: 'Group.projects',
      kind: 'group',
      selection: `projects(first: 1) { nodes { fullPath } ${PAGE_INFO} } all: projects { nodes { fullPath } }`,
      queries: 5,
    },
    {
      name: 'Group.groupMembers',
      kind: 'group',
      selection: `groupMembers(first: 1) { nodes { user { username } accessLevel { integerValue } } ${PAGE_INFO} } all: groupMembers { nodes { user { username } } }`,
      queries: 5,
    },
    {
      name: 'User.snippets',
      kind: 'user',
      selection: `snippets(first: 1) { nodes { title } ${PAGE_INFO} } all: snippets { nodes { title visibilityLevel } ${PAGE_INFO} }`,
      queries: 4,
    },
  ];

describe('connections nested under lists', () => {
  for (const c of CASES) {
    it(`${c.name}: the same number of queries for 2 and 6 parents, each parent as the single-parent query answers`, async () => {
      const two = await compare(c.kind, c.selection, 2);
      const six = await compare(c.kind, c.selection, 6);
      console.log(`nested budget, ${c.name}: ${two.count} queries for 2 parents, ${six.count} for 6`);
      expect(six.count).toBeLessThanOrEqual(two.count);
      expect(six.count).toBeLessThanOrEqual(c.queries);
      c.check?.(world.projects.map((p) => six.nodes.find((n) => n.key === p.path)));
    });
  }
});
