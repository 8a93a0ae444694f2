import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { epics, labelLinks } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { createEpic, FREE, PREMIUM } from './support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

async function group(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const g = await createGroup(owner.token, { visibility });
  return { owner, group: g };
}

describe('POST /groups/:id/epics', () => {
  it('creates an epic with iids per group and the 13.6 entity', async () => {
    const { owner, group: g } = await group();
    const res = await api.post(`/groups/${g.id}/epics`, {
      token: owner.token,
      env: PREMIUM,
      body: {
        title: 'Roadmap',
        description: 'd',
        labels: 'b,a',
        start_date_is_fixed: true,
        start_date: '2020-01-01',
        due_date_is_fixed: true,
        due_date_fixed: '2020-02-01',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      group_id: g.id,
      parent_id: null,
      title: 'Roadmap',
      description: 'd',
      confidential: false,
      author: expect.objectContaining({ id: owner.user.id, username: owner.user.username }),
      start_date: '2020-01-01',
      start_date_is_fixed: true,
      start_date_fixed: '2020-01-01',
      start_date_from_inherited_source: null,
      start_date_from_milestones: null,
      end_date: '2020-02-01',
      due_date: '2020-02-01',
      due_date_is_fixed: true,
      due_date_fixed: '2020-02-01',
      due_date_from_inherited_source: null,
      due_date_from_milestones: null,
      state: 'opened',
      web_edit_url: `/groups/${g.full_path}/-/epics/1`,
      web_url: `${TEST_PUBLIC_URL}/groups/${g.full_path}/-/epics/1`,
      references: { short: '&1', relative: '&1', full: `${g.full_path}&1` },
      created_at: ISO,
      updated_at: ISO,
      closed_at: null,
      labels: ['a', 'b'],
      upvotes: 0,
      downvotes: 0,
      _links: {
        self: `${TEST_PUBLIC_URL}/api/v4/groups/${g.id}/epics/1`,
        epic_issues: `${TEST_PUBLIC_URL}/api/v4/groups/${g.id}/epics/1/issues`,
        group: `${TEST_PUBLIC_URL}/api/v4/groups/${g.id}`,
      },
    });
    const second = await createEpic(owner.token, g.full_path);
    expect(second.iid).toBe(2);
  });

  it('refuses bad input with nothing written', async () => {
    const { owner, group: g } = await group();
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{}, { error: 'title is missing' }],
      [{ title: '' }, { message: { title: ["can't be blank"] } }],
      [{ title: '   ' }, { message: { title: ["can't be blank"] } }],
      [{ title: 'x'.repeat(256) }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
      [{ title: 't', confidential: 'maybe' }, { error: 'confidential is invalid' }],
      [{ title: 't', start_date: 'nope' }, { error: 'start_date is invalid' }],
      [{ title: 't', parent_id: 2147483000 }, { message: { parent: ['The parent is not valid'] } }],
    ];
    for (const [body, expected] of cases) {
      const res = await api.post(`/groups/${g.id}/epics`, { token: owner.token, env: PREMIUM, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect(await testDb().db.select().from(epics).where(eq(epics.groupId, g.id))).toEqual([]);
  });

  it('takes a parent epic of the group or an ancestor', async () => {
    const { owner, group: g } = await group();
    const sub = await createGroup(owner.token, { parentId: g.id });
    const parent = await createEpic(owner.token, g.id);
    const child = await createEpic(owner.token, sub.id, { parent_id: parent.id });
    expect(child.parent_id).toBe(parent.id);
    const other = await group();
    const res = await api.post(`/groups/${other.group.id}/epics`, { token: other.owner.token, env: PREMIUM, body: { title: 't', parent_id: parent.id } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { parent: ['The parent is not valid'] } });
  });
});

describe('GET /groups/:id/epics/:epic_iid', () => {
  it('shows the epic with subscribed; a missing iid is 403 as GitLab authorizes nil', async () => {
    const { owner, group: g } = await group();
    const epic = await createEpic(owner.token, g.id);
    const res = await api.get(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: epic.id, subscribed: true });
    const missing = await api.get(`/groups/${g.id}/epics/999`, { token: owner.token, env: PREMIUM });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ message: '403 Forbidden' });
    const bad = await api.get(`/groups/${g.id}/epics/abc`, { token: owner.token, env: PREMIUM });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'epic_iid is invalid' });
  });

  it('hides the admin-only fields from those who cannot admin epics', async () => {
    const { owner, group: g } = await group('public');
    const epic = await createEpic(owner.token, g.id);
    const res = await api.get(`/groups/${g.id}/epics/${epic.iid}`, { env: PREMIUM });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('start_date_is_fixed');
    expect(res.body).not.toHaveProperty('web_edit_url');
    expect(res.body.subscribed).toBe(false);
  });

  it('confidential epics are for reporters and above', async () => {
    const { owner, group: g } = await group('public');
    const guest = await createUser();
    await addMember(owner.token, 'groups', g.id, guest.user.id, 10);
    const epic = await createEpic(owner.token, g.id, { confidential: true });
    expect((await api.get(`/groups/${g.id}/epics/${epic.iid}`, { token: guest.token, env: PREMIUM })).status).toBe(403);
    expect((await api.get(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM })).status).toBe(200);
    const list = await api.get(`/groups/${g.id}/epics`, { token: guest.token, env: PREMIUM });
    expect(list.body).toEqual([]);
  });
});

describe('PUT /groups/:id/epics/:epic_iid', () => {
  it('updates fields, labels and state', async () => {
    const { owner, group: g } = await group();
    const epic = await createEpic(owner.token, g.id, { labels: 'one,two' });
    const res = await api.put(`/groups/${g.id}/epics/${epic.iid}`, {
      token: owner.token,
      env: PREMIUM,
      body: { title: 'New', add_labels: 'three', remove_labels: 'one', state_event: 'close', confidential: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'New', labels: ['three', 'two'], state: 'closed', confidential: true, closed_at: ISO });
    const reopened = await api.put(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'reopen', labels: '' } });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, labels: [] });
    const [row] = await testDb().db.select().from(epics).where(eq(epics.id, epic.id));
    expect(row!.closedById).toBeNull();
  });

  it('needs one of the fields; bad values change nothing', async () => {
    const { owner, group: g } = await group();
    const epic = await createEpic(owner.token, g.id, { title: 'Keep' });
    const none = await api.put(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM, body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      error:
        'title, description, start_date_fixed, start_date_is_fixed, due_date_fixed, due_date_is_fixed, labels, add_labels, remove_labels, state_event, confidential are missing, at least one parameter must be provided',
    });
    for (const body of [{ state_event: 'open' }, { title: '' }, { due_date_is_fixed: 'x' }]) {
      const res = await api.put(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const [row] = await testDb().db.select().from(epics).where(eq(epics.id, epic.id));
    expect(row).toMatchObject({ title: 'Keep', state: 'opened' });
  });
});

describe('DELETE /groups/:id/epics/:epic_iid', () => {
  it('owners delete (204), reporters may not (403)', async () => {
    const { owner, group: g } = await group();
    const reporter = await createUser();
    await addMember(owner.token, 'groups', g.id, reporter.user.id, 20);
    const epic = await createEpic(owner.token, g.id, { labels: 'x' });
    expect((await api.delete(`/groups/${g.id}/epics/${epic.iid}`, { token: reporter.token, env: PREMIUM })).status).toBe(403);
    const res = await api.delete(`/groups/${g.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM });
    expect(res.status).toBe(204);
    expect(await testDb().db.select().from(epics).where(eq(epics.id, epic.id))).toEqual([]);
    expect(await testDb().db.select().from(labelLinks).where(eq(labelLinks.targetId, epic.id))).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ targetType: 'Epic' })]),
    );
  });
});

describe('free tier', () => {
  it('answers 403 after finding the group; a hidden group is 404 first', async () => {
    const { owner, group: g } = await group();
    const epic = await createEpic(owner.token, g.id);
    for (const [method, path] of [
      ['get', `/groups/${g.id}/epics`],
      ['get', `/groups/${g.id}/epics/${epic.iid}`],
      ['post', `/groups/${g.id}/epics`],
      ['put', `/groups/${g.id}/epics/${epic.iid}`],
      ['delete', `/groups/${g.id}/epics/${epic.iid}`],
      ['get', `/groups/${g.id}/epics/${epic.iid}/issues`],
    ] as const) {
      const res = await api[method](path, { token: owner.token, env: FREE, ...(method === 'get' ? {} : { body: { title: 'x' } }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const stranger = await createUser();
    const hidden = await api.get(`/groups/${g.id}/epics`, { token: stranger.token, env: FREE });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    expect((await api.get(`/groups/${unique('nope')}/epics`, { token: owner.token, env: PREMIUM })).status).toBe(404);
  });
});

describe('GET /groups/:id/epics', () => {
  it('filters, orders and paginates in a constant number of queries', async () => {
    const { owner, group: g } = await group();
    const sub = await createGroup(owner.token, { parentId: g.id });
    const other = await createUser();
    await addMember(owner.token, 'groups', g.id, other.user.id, 30);
    const a = await createEpic(owner.token, g.id, { title: 'Alpha apples', labels: 'red' });
    const b = await createEpic(other.token, g.id, { title: 'Beta', description: 'apples here', labels: 'red,blue' });
    const c = await createEpic(owner.token, sub.id, { title: 'Gamma' });
    await api.put(`/groups/${g.id}/epics/${b.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'close' } });
    const ids = async (query: Record<string, string | number | boolean> = {}, groupId = g.id) => {
      const res = await api.get(`/groups/${groupId}/epics`, { token: owner.token, env: PREMIUM, query });
      expect(res.status, res.text).toBe(200);
      return res.body.map((e: { id: number }) => e.id);
    };
    expect(await ids()).toEqual([c.id, b.id, a.id]);
    expect(await ids({ include_descendant_groups: false })).toEqual([b.id, a.id]);
    expect(await ids({ sort: 'asc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ order_by: 'updated_at' })).toEqual([b.id, c.id, a.id]);
    expect(await ids({ state: 'closed' })).toEqual([b.id]);
    expect(await ids({ state: 'opened' })).toEqual([c.id, a.id]);
    expect(await ids({ author_id: other.user.id })).toEqual([b.id]);
    expect(await ids({ labels: 'red' })).toEqual([b.id, a.id]);
    expect(await ids({ labels: 'red,blue' })).toEqual([b.id]);
    expect(await ids({ search: 'apples' })).toEqual([b.id, a.id]);
    expect(await ids({ created_after: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect(await ids({ include_ancestor_groups: true }, sub.id)).toEqual([c.id, b.id, a.id]);
    expect(await ids({}, sub.id)).toEqual([c.id]);
    const details = await api.get(`/groups/${g.id}/epics`, { token: owner.token, env: PREMIUM, query: { with_labels_details: true, labels: 'blue' } });
    expect(details.body[0].labels).toEqual([expect.objectContaining({ name: 'blue' }), expect.objectContaining({ name: 'red', color: '#6699cc' })]);
    const page = await api.get(`/groups/${g.id}/epics`, { token: owner.token, env: PREMIUM, query: { per_page: 2 } });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-total')).toBe('3');
    expect(queryCount(page)).toBeLessThanOrEqual(4);
    const bad = await api.get(`/groups/${g.id}/epics`, { token: owner.token, env: PREMIUM, query: { order_by: 'title' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('is open to anonymous callers on public groups', async () => {
    const { owner, group: g } = await group('public');
    await createEpic(owner.token, g.id);
    const res = await api.get(`/groups/${g.id}/epics`, { env: PREMIUM });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect((await api.post(`/groups/${g.id}/epics`, { env: PREMIUM, body: { title: 't' } })).status).toBe(401);
    // GitLab mounts the same API under /groups/:id/-/epics.
    const alias = await api.get(`/groups/${encodeURIComponent(g.full_path)}/-/epics/1`, { env: PREMIUM });
    expect(alias.status).toBe(200);
    expect(alias.body.iid).toBe(1);
  });
});
