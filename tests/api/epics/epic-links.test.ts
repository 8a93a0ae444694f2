// Child epics (GitLab 13.6 ee/lib/api/epic_links.rb): list, link, create, move, unlink; the subepics license
// (Ultimate) for links, creates and moves, Premium for reads and unlinks; GitLab's refusals; a race that would close a
// cycle (run with TEST_DB=postgres for real concurrent connections).
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { epics } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, request, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createEpic, FREE, PREMIUM } from './support.ts';

const ULTIMATE = { INSTANCE_TIER: 'ultimate' } as const;
const children = (g: number, iid: number) => `/groups/${g}/epics/${iid}/epics`;
const ids = (body: Array<{ id: number }>) => body.map((e) => e.id);

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const parent = await createEpic(owner.token, group.id);
  return { owner, group, parent };
}

async function parents(epicIds: number[]) {
  const found = await testDb().db.select({ id: epics.id, parentId: epics.parentId }).from(epics).where(inArray(epics.id, epicIds));
  return Object.fromEntries(found.map((r) => [r.id, r.parentId]));
}

describe('child epics', () => {
  it('links, lists in tree order with pagination headers, moves and unlinks', async () => {
    const { owner, group, parent } = await setup();
    const [a, b, c] = [await createEpic(owner.token, group.id), await createEpic(owner.token, group.id), await createEpic(owner.token, group.id)];
    for (const child of [a, b, c]) {
      const res = await api.post(`${children(group.id, parent.iid)}/${child.id}`, { token: owner.token, env: ULTIMATE });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ id: child.id, iid: child.iid, parent_id: parent.id, group_id: group.id, title: child.title });
    }
    // Each link goes first (move_to_start).
    const list = await api.get(children(group.id, parent.iid), { token: owner.token, env: PREMIUM });
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([c.id, b.id, a.id]);
    expect(list.headers.get('x-total')).toBe('3');
    const page2 = await api.get(children(group.id, parent.iid), { token: owner.token, env: PREMIUM, query: { per_page: 2, page: 2 } });
    expect(ids(page2.body)).toEqual([a.id]);
    expect([page2.headers.get('x-page'), page2.headers.get('x-per-page'), page2.headers.get('x-total-pages')]).toEqual(['2', '2', '2']);

    // move c after a (move_before_id: the epic that ends up before it).
    const moved = await api.put(`${children(group.id, parent.iid)}/${c.id}`, { token: owner.token, env: ULTIMATE, body: { move_before_id: a.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(ids(moved.body)).toEqual([b.id, a.id, c.id]);
    const between = await api.put(`${children(group.id, parent.iid)}/${a.id}`, { token: owner.token, env: ULTIMATE, body: { move_after_id: b.id } });
    expect(ids(between.body)).toEqual([a.id, b.id, c.id]);
    const stranger = await createEpic(owner.token, group.id);
    const badMove = await api.put(`${children(group.id, parent.iid)}/${a.id}`, { token: owner.token, env: ULTIMATE, body: { move_before_id: stranger.id } });
    expect(badMove.status).toBe(404);
    expect(badMove.body).toEqual({ message: 'Epic not found for given params' });

    // Unlinking works on Premium (destroy_epic_link needs no subepics license).
    const removed = await api.delete(`${children(group.id, parent.iid)}/${b.id}`, { token: owner.token, env: PREMIUM });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ id: b.id, parent_id: null });
    const again = await api.delete(`${children(group.id, parent.iid)}/${b.id}`, { token: owner.token, env: PREMIUM });
    expect(again.status).toBe(404);
    expect(ids((await api.get(children(group.id, parent.iid), { token: owner.token, env: PREMIUM })).body)).toEqual([a.id, c.id]);
    expect(await parents([a.id, b.id, c.id])).toEqual({ [a.id]: parent.id, [b.id]: null, [c.id]: parent.id });

    // GraphQL reads the same columns.
    const gql = await request('POST', '/api/graphql', {
      token: owner.token,
      env: PREMIUM,
      body: { query: `{ group(fullPath: "${group.full_path}") { epic(iid: "${parent.iid}") { hasChildren children { nodes { id } } } } }` },
    });
    expect(gql.body.data?.group?.epic, gql.text).toEqual({
      hasChildren: true,
      children: { nodes: expect.arrayContaining([{ id: `gid://gitlab/Epic/${a.id}` }, { id: `gid://gitlab/Epic/${c.id}` }]) },
    });
  });

  it('GraphQL descendantCounts and descendantWeightSum: the subtree in one statement per page', async () => {
    const { owner, group, parent } = await setup();
    const project = (await api.post('/projects', { token: owner.token, body: { name: 'p', path: `p-${parent.id}`, namespace_id: group.id } })).body;
    const child = (await api.post(children(group.id, parent.iid), { token: owner.token, env: ULTIMATE, body: { title: 'c' } })).body;
    const grandchild = (await api.post(children(group.id, child.iid), { token: owner.token, env: ULTIMATE, body: { title: 'g' } })).body;
    await api.put(`/groups/${group.id}/epics/${grandchild.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'close' } });
    const issue = async (epicIid: number, weight: number, close: boolean) => {
      const created = (await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'i', weight } })).body;
      if (close) await api.put(`/projects/${project.id}/issues/${created.iid}`, { token: owner.token, body: { state_event: 'close' } });
      expect((await api.post(`/groups/${group.id}/epics/${epicIid}/issues/${created.id}`, { token: owner.token, env: PREMIUM })).status).toBe(201);
    };
    await issue(parent.iid, 1, false);
    await issue(child.iid, 2, true);
    await issue(grandchild.iid, 4, false);
    const res = await request('POST', '/api/graphql', {
      token: owner.token,
      env: PREMIUM,
      body: {
        query: `{ group(fullPath: "${group.full_path}") { epics(iids: ["${parent.iid}", "${child.iid}"]) { nodes { iid descendantCounts { openedEpics closedEpics openedIssues closedIssues } descendantWeightSum { openedIssues closedIssues } } } } }`,
      },
    });
    const byIid = Object.fromEntries(res.body.data.group.epics.nodes.map((n: { iid: string }) => [n.iid, n]));
    expect(byIid[String(parent.iid)]).toMatchObject({
      descendantCounts: { openedEpics: 1, closedEpics: 1, openedIssues: 2, closedIssues: 1 },
      descendantWeightSum: { openedIssues: 5, closedIssues: 2 },
    });
    expect(byIid[String(child.iid)]).toMatchObject({
      descendantCounts: { openedEpics: 0, closedEpics: 1, openedIssues: 1, closedIssues: 1 },
      descendantWeightSum: { openedIssues: 4, closedIssues: 2 },
    });
  });

  it('creates a child (LinkedEpic), inheriting confidentiality, in the group or a subgroup', async () => {
    const { owner, group, parent } = await setup();
    const res = await api.post(children(group.id, parent.iid), { token: owner.token, env: ULTIMATE, body: { title: 'Child one' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      title: 'Child one',
      group_id: group.id,
      parent_id: parent.id,
      has_children: false,
      has_issues: false,
      reference: `&${res.body.iid}`,
      url: expect.stringMatching(new RegExp(`/groups/${group.full_path}/-/epics/${res.body.iid}$`)),
      relation_url: expect.stringMatching(new RegExp(`/groups/${group.full_path}/-/epics/${parent.iid}/links/${res.body.id}$`)),
    });
    const sub = await createGroup(owner.token, { parentId: group.id });
    const inSub = await api.post(children(group.id, parent.iid), { token: owner.token, env: ULTIMATE, body: { title: 'Child two', subgroup_id: sub.id } });
    expect(inSub.status, inSub.text).toBe(201);
    expect(inSub.body).toMatchObject({ group_id: sub.id, parent_id: parent.id, reference: `${sub.full_path}&${inSub.body.iid}` });
    // The group itself is not a subgroup of itself.
    const self = await api.post(children(group.id, parent.iid), { token: owner.token, env: ULTIMATE, body: { title: 'x', subgroup_id: group.id } });
    expect(self.status).toBe(404);
    expect(self.body).toEqual({ message: '404 Group Not Found' });

    const secret = await createEpic(owner.token, group.id, { confidential: true });
    const child = await api.post(children(group.id, secret.iid), { token: owner.token, env: ULTIMATE, body: { title: 'Secret child' } });
    expect(child.status).toBe(201);
    const shown = await api.get(`/groups/${group.id}/epics/${child.body.iid}`, { token: owner.token, env: PREMIUM });
    expect(shown.body.confidential).toBe(true);
    const open = await api.post(children(group.id, secret.iid), { token: owner.token, env: ULTIMATE, body: { title: 'Open child', confidential: false } });
    expect(open.status).toBe(400);
    expect(open.body).toEqual({ message: { confidential: ['A non-confidential epic cannot be assigned to a confidential parent epic'] } });
  });

  it("refuses GitLab's invalid links with its messages, writing nothing", async () => {
    const { owner, group, parent } = await setup();
    const child = await createEpic(owner.token, group.id);
    await api.post(`${children(group.id, parent.iid)}/${child.id}`, { token: owner.token, env: ULTIMATE });
    const grandchild = await createEpic(owner.token, group.id);
    await api.post(`${children(group.id, child.iid)}/${grandchild.id}`, { token: owner.token, env: ULTIMATE });
    const otherGroup = await createGroup(owner.token);
    const foreign = await createEpic(owner.token, otherGroup.id);
    const secret = await createEpic(owner.token, group.id, { confidential: true });
    const plain = await createEpic(owner.token, group.id);

    const cases: Array<[string, number, number, number, unknown]> = [
      ['itself', parent.iid, parent.id, 409, { message: 'This epic cannot be added. An epic cannot be added to itself.' }],
      ['already linked', parent.iid, child.id, 409, { message: 'This epic cannot be added. It is already assigned to the parent epic.' }],
      ['an ancestor', grandchild.iid, parent.id, 409, { message: 'This epic cannot be added. It is already an ancestor of the parent epic.' }],
      ['outside the group hierarchy', parent.iid, foreign.id, 404, { message: 'No Epic found for given params' }],
      ['missing', parent.iid, 2147483000, 404, { message: 'No Epic found for given params' }],
      [
        'non-confidential under confidential',
        secret.iid,
        plain.id,
        409,
        { message: 'A non-confidential epic cannot be assigned to a confidential parent epic' },
      ],
    ];
    const before = await parents([parent.id, child.id, grandchild.id, foreign.id, plain.id]);
    for (const [name, iid, childId, status, body] of cases) {
      const res = await api.post(`${children(group.id, iid)}/${childId}`, { token: owner.token, env: ULTIMATE });
      expect([name, res.status, res.body]).toEqual([name, status, body]);
    }
    expect(await parents([parent.id, child.id, grandchild.id, foreign.id, plain.id])).toEqual(before);
    const bad = await api.post(children(group.id, parent.iid), { token: owner.token, env: ULTIMATE, body: { title: '  ' } });
    expect(bad.status).toBe(400);
  });

  it('enforces the maximum depth (5) from the most distant ancestor', async () => {
    const { owner, group } = await setup();
    const chain = [];
    for (let i = 0; i < 5; i++) chain.push(await createEpic(owner.token, group.id));
    for (let i = 1; i < 4; i++) {
      const res = await api.post(`${children(group.id, chain[i - 1]!.iid)}/${chain[i]!.id}`, { token: owner.token, env: ULTIMATE });
      expect(res.status, res.text).toBe(201);
    }
    // chain[0] > chain[1] > chain[2] > chain[3]: the parent chain[3] has 4 in its base and ancestors, a leaf adds 1.
    const deep = await api.post(`${children(group.id, chain[3]!.iid)}/${chain[4]!.id}`, { token: owner.token, env: ULTIMATE });
    expect(deep.status).toBe(409);
    expect(deep.body).toEqual({ message: 'This epic cannot be added. One or more epics would exceed the maximum depth (5) from its most distant ancestor.' });
    const created = await api.post(children(group.id, chain[3]!.iid), { token: owner.token, env: ULTIMATE, body: { title: 'too deep' } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({
      message: { parent: ['This epic cannot be added. One or more epics would exceed the maximum depth (5) from its most distant ancestor.'] },
    });
    // The same rule for POST /groups/:id/epics with parent_id (the model validates every parent), nothing stored.
    const viaCreate = await api.post(`/groups/${group.id}/epics`, {
      token: owner.token,
      env: ULTIMATE,
      body: { title: 'too deep too', parent_id: chain[3]!.id },
    });
    expect(viaCreate.status).toBe(400);
    expect(viaCreate.body).toEqual({
      message: { parent: ['This epic cannot be added. One or more epics would exceed the maximum depth (5) from its most distant ancestor.'] },
    });
    expect(await testDb().db.select({ id: epics.id }).from(epics).where(eq(epics.groupId, group.id))).toHaveLength(chain.length + 1);
    // A subtree of two under chain[2] (4 levels deep with its ancestors): refused too.
    const top = await createEpic(owner.token, group.id);
    const below = await createEpic(owner.token, group.id);
    expect((await api.post(`${children(group.id, top.iid)}/${below.id}`, { token: owner.token, env: ULTIMATE })).status).toBe(201);
    const subtree = await api.post(`${children(group.id, chain[2]!.iid)}/${top.id}`, { token: owner.token, env: ULTIMATE });
    expect(subtree.status).toBe(409);
  });

  it('gates on the license: reads and unlinks on Premium, links/creates/moves on Ultimate, nothing on Free', async () => {
    const { owner, group, parent } = await setup();
    const child = await createEpic(owner.token, group.id);
    const forbidden = { message: '403 Forbidden' };
    const link = await api.post(`${children(group.id, parent.iid)}/${child.id}`, { token: owner.token, env: PREMIUM });
    expect([link.status, link.body]).toEqual([403, forbidden]);
    const create = await api.post(children(group.id, parent.iid), { token: owner.token, env: PREMIUM, body: { title: 'x' } });
    expect([create.status, create.body]).toEqual([403, forbidden]);
    const move = await api.put(`${children(group.id, parent.iid)}/${child.id}`, { token: owner.token, env: PREMIUM, body: { move_after_id: child.id } });
    expect([move.status, move.body]).toEqual([403, forbidden]);
    expect(await parents([child.id])).toEqual({ [child.id]: null });
    const read = await api.get(children(group.id, parent.iid), { token: owner.token, env: FREE });
    expect([read.status, read.body]).toEqual([403, forbidden]);
    const unlink = await api.delete(`${children(group.id, parent.iid)}/${child.id}`, { token: owner.token, env: FREE });
    expect([unlink.status, unlink.body]).toEqual([403, forbidden]);
  });

  it('lists only the children the caller may read (confidential ones for reporters and up)', async () => {
    const { owner, group, parent } = await setup();
    const guest = await createUser();
    await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
    const open = await createEpic(owner.token, group.id);
    const secret = await createEpic(owner.token, group.id, { confidential: true });
    const secretParent = await createEpic(owner.token, group.id, { confidential: true });
    expect((await api.post(`${children(group.id, secretParent.iid)}/${secret.id}`, { token: owner.token, env: ULTIMATE })).status).toBe(201);
    expect((await api.post(`${children(group.id, parent.iid)}/${open.id}`, { token: owner.token, env: ULTIMATE })).status).toBe(201);
    expect(ids((await api.get(children(group.id, parent.iid), { token: guest.token, env: PREMIUM })).body)).toEqual([open.id]);
    const hidden = await api.get(children(group.id, secretParent.iid), { token: guest.token, env: PREMIUM });
    expect(hidden.status).toBe(403);
  });

  it('two concurrent links that together would form a cycle: exactly one lands', async () => {
    const { owner, group } = await setup();
    for (let round = 0; round < 3; round++) {
      const [x, y] = [await createEpic(owner.token, group.id), await createEpic(owner.token, group.id)];
      const [one, two] = await Promise.all([
        api.post(`${children(group.id, x.iid)}/${y.id}`, { token: owner.token, env: ULTIMATE }),
        api.post(`${children(group.id, y.iid)}/${x.id}`, { token: owner.token, env: ULTIMATE }),
      ]);
      expect([one.status, two.status].sort()).toEqual([201, 409]);
      const loser = one.status === 409 ? one : two;
      expect(loser.body).toEqual({ message: 'This epic cannot be added. It is already an ancestor of the parent epic.' });
      const now = await parents([x.id, y.id]);
      expect(now[x.id] === null || now[y.id] === null).toBe(true);
    }
    // A longer cycle through rows neither request touches: a > b, c > d; link d under... b > c and d > a at once.
    const [a, b, c, d] = [
      await createEpic(owner.token, group.id),
      await createEpic(owner.token, group.id),
      await createEpic(owner.token, group.id),
      await createEpic(owner.token, group.id),
    ];
    await api.post(`${children(group.id, a.iid)}/${b.id}`, { token: owner.token, env: ULTIMATE });
    await api.post(`${children(group.id, c.iid)}/${d.id}`, { token: owner.token, env: ULTIMATE });
    const results = await Promise.all([
      api.post(`${children(group.id, b.iid)}/${c.id}`, { token: owner.token, env: ULTIMATE }),
      api.post(`${children(group.id, d.iid)}/${a.id}`, { token: owner.token, env: ULTIMATE }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const now = await parents([a.id, b.id, c.id, d.id]);
    expect(now[a.id] === null || now[c.id] === null).toBe(true);
  });
});

async function authFixture() {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token);
  await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  const parent = await createEpic(owner.token, group.id);
  const child = await createEpic(owner.token, group.id);
  return { group, parent, child, owner, allowed: reporter.token, insufficientRole: guest.token, nonMember: stranger.token };
}
const HIDDEN = { status: 404, body: { message: '404 Group Not Found' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

describeAuthorization('GET /groups/:id/epics/:epic_iid/epics', {
  fixture: async () => {
    const fx = await authFixture();
    return { ...fx, allowed: fx.insufficientRole };
  },
  call: (fx, token) => api.get(children(fx.group.id, fx.parent.iid), { token, env: PREMIUM }),
  success: 200,
  nonMember: HIDDEN,
});

describeAuthorization('POST /groups/:id/epics/:epic_iid/epics/:child_epic_id', {
  fixture: authFixture,
  call: (fx, token) => api.post(`${children(fx.group.id, fx.parent.iid)}/${fx.child.id}`, { token, env: ULTIMATE }),
  success: 201,
  nonMember: HIDDEN,
  insufficientRole: FORBIDDEN,
});

describeAuthorization('DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id', {
  fixture: async () => {
    const fx = await authFixture();
    await api.post(`${children(fx.group.id, fx.parent.iid)}/${fx.child.id}`, { token: fx.owner.token, env: ULTIMATE });
    return fx;
  },
  call: (fx, token) => api.delete(`${children(fx.group.id, fx.parent.iid)}/${fx.child.id}`, { token, env: PREMIUM }),
  success: 200,
  nonMember: HIDDEN,
  insufficientRole: FORBIDDEN,
});
