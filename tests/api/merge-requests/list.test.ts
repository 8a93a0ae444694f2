// The three merge request lists with MergeRequestsFinder's filters (13.6), pagination headers, view=simple, no
// `subscribed` in lists, the scope rules of GET /merge_requests, and the query budget (a page of 100 in <= 4).
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { branch, commit, mrProject, mrs, openMergeRequest } from './support.ts';

type Fx = Awaited<ReturnType<typeof mrProject>>;

/** Three MRs: !1 topic (labels bug,ux; assignee developer), !2 draft (label bug; reviewer reporter), !3 closed. */
async function setup() {
  const fx = await mrProject();
  for (const b of ['second', 'third']) {
    await branch(fx, b);
    await commit(fx, b, `On ${b}`, [{ action: 'create', file_path: `${b}.txt`, content: `${b}\n` }]);
  }
  const a = await openMergeRequest(fx, { title: 'Add the topic', description: 'alpha text', labels: 'bug,ux', assignee_ids: [fx.developer.user.id] });
  const b = await openMergeRequest(fx, {
    source_branch: 'second',
    target_branch: 'topic',
    title: 'Draft: second thoughts',
    labels: 'bug',
    reviewer_ids: [fx.reporter.user.id],
  });
  const c = await openMergeRequest(fx, { source_branch: 'third', title: 'Third', description: 'beta' }, fx.developer.token);
  await api.put(`${mrs(fx)}/${c.iid}`, { token: fx.owner.token, body: { state_event: 'close' } });
  return { ...fx, a, b, c };
}

const iids = async (fx: Fx, query: Record<string, unknown>, path = mrs(fx), token = fx.owner.token) => {
  const res = await api.get(path, { token, query: query as Record<string, string> });
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ iid: number }>).map((m) => m.iid);
};

describe('GET /projects/:id/merge_requests', () => {
  it('filters as MergeRequestsFinder: state, labels (AND, None, Any), not[], wip, iids, search/in, branches, people', async () => {
    const fx = await setup();
    const cases: Array<[Record<string, unknown>, number[]]> = [
      [{}, [3, 2, 1]],
      [{ state: 'opened' }, [2, 1]],
      [{ state: 'closed' }, [3]],
      [{ state: 'merged' }, []],
      [{ labels: 'bug' }, [2, 1]],
      [{ labels: 'bug,ux' }, [1]],
      [{ labels: 'None' }, [3]],
      [{ labels: 'Any' }, [2, 1]],
      [{ 'not[labels]': 'ux' }, [3, 2]],
      [{ wip: 'yes' }, [2]],
      [{ wip: 'no' }, [3, 1]],
      [{ 'iids[]': [1, 3] }, [3, 1]],
      [{ search: 'ALPHA' }, [1]],
      [{ search: 'second', in: 'title' }, [2]],
      [{ search: 'beta', in: 'title' }, []],
      [{ source_branch: 'second' }, [2]],
      [{ target_branch: 'topic' }, [2]],
      [{ author_id: fx.developer.user.id }, [3]],
      [{ 'not[author_id]': fx.developer.user.id }, [2, 1]],
      [{ assignee_id: fx.developer.user.id }, [1]],
      [{ assignee_id: 'None' }, [3, 2]],
      [{ assignee_id: 'Any' }, [1]],
      [{ reviewer_id: fx.reporter.user.id }, [2]],
      [{ reviewer_username: fx.reporter.user.username }, [2]],
      [{ scope: 'created_by_me' }, [2, 1]],
      [{ scope: 'assigned_to_me' }, []],
      [{ order_by: 'updated_at', sort: 'asc' }, [1, 2, 3]],
      [{ sort: 'asc' }, [1, 2, 3]],
    ];
    for (const [query, expected] of cases) expect(await iids(fx, query), JSON.stringify(query)).toEqual(expected);
  });

  it('pagination headers; no `subscribed` in lists; view=simple; with_labels_details', async () => {
    const fx = await setup();
    const res = await api.get(mrs(fx), { token: fx.owner.token, query: { per_page: 2 } });
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(Object.keys((res.body as object[])[0]!)).not.toContain('subscribed');
    const simple = await api.get(mrs(fx), { token: fx.owner.token, query: { view: 'simple', per_page: 1 } });
    expect(Object.keys((simple.body as object[])[0]!)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'web_url',
    ]);
    const detailed = await api.get(mrs(fx), { token: fx.owner.token, query: { with_labels_details: true, 'iids[]': 1 } });
    expect((detailed.body as Array<{ labels: unknown[] }>)[0]!.labels).toEqual([
      expect.objectContaining({ name: 'bug', color: expect.any(String) }),
      expect.objectContaining({ name: 'ux' }),
    ]);
  });

  it('400 for bad parameters', async () => {
    const fx = await mrProject();
    for (const [query, error] of [
      [{ state: 'nope' }, 'state does not have a valid value'],
      [{ wip: 'maybe' }, 'wip does not have a valid value'],
      [{ order_by: 'title' }, 'order_by does not have a valid value'],
    ] as const) {
      const res = await api.get(mrs(fx), { token: fx.owner.token, query });
      expect([res.status, res.body], JSON.stringify(query)).toEqual([400, { error }]);
    }
  });

  it('a guest of a private project sees none; a page of 100 costs at most 4 queries', async () => {
    const fx = await setup();
    const guest = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    expect(await iids(fx, {}, mrs(fx), guest.token)).toEqual([]);
    const res = await api.get(mrs(fx), { token: fx.owner.token, query: { per_page: 100 } });
    expect(queryCount(res)).toBeLessThanOrEqual(4);
  });
});

describe('GET /merge_requests and /groups/:id/merge_requests', () => {
  it("/merge_requests: the caller's own by default, scope=all everything readable; anonymous callers must ask for all", async () => {
    const fx = await setup();
    expect(await iids(fx, {}, '/merge_requests', fx.developer.token)).toEqual([3]);
    expect(await iids(fx, { scope: 'all' }, '/merge_requests', fx.developer.token)).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(await iids(fx, { scope: 'assigned_to_me' }, '/merge_requests', fx.developer.token)).toEqual([1]);
    const anonymous = await api.get('/merge_requests');
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it("a group's list holds its projects' MRs", async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const res = await api.post('/projects', { token: owner.token, body: { name: `g-${Date.now()}`, namespace_id: group.id, initialize_with_readme: true } });
    expect(res.status, res.text).toBe(201);
    const fx = { project: res.body as { id: number; path_with_namespace: string }, owner };
    await branch(fx, 'topic');
    await commit(fx, 'topic', 'Change', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }]);
    await openMergeRequest(fx);
    expect(await iids(fx as unknown as Fx, {}, `/groups/${group.id}/merge_requests`, owner.token)).toEqual([1]);
    expect((await api.get(`/groups/${group.id}/merge_requests`, { token: (await createUser()).token })).status).toBe(404);
  });
});

describe('merge_status in lists', () => {
  it('checked again by the push itself (here: a new conflict), the list and the MR alone agreeing', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    const status = async () => ((await api.get(mrs(fx), { token: fx.owner.token })).body as Array<{ merge_status: string; has_conflicts: boolean }>)[0]!;
    expect(await status()).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false });
    await commit(fx, 'master', 'Clash', [{ action: 'update', file_path: 'list.txt', content: 'line 1\nline 2\nline III\n' }]);
    expect(await status()).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true });
    expect(((await api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).body as { merge_status: string }).merge_status).toBe('cannot_be_merged');
  });
});
