// Branches, tags and commits through HTTP (GitLab 13.6 branches.rb, tags.rb, commits.rb).
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { RepoWriter } from './read-support.ts';

const T0 = 1_600_000_000;
let owner: { token: string };
let developer: { token: string };
let project: { id: number; path_with_namespace: string };
const main: string[] = [];
let feature: string;
let annotated: string;

beforeAll(async () => {
  owner = await createUser();
  developer = await createUser();
  project = await createProject(owner.token);
  await addMember(owner.token, 'projects', project.id, (await api.get('/user', { token: developer.token })).body.id, 30);
  const repo = await RepoWriter.open(project.id);
  main.push(await repo.commit('main', { 'a.txt': 'a\n' }, 'First\n\nBody\n', T0));
  main.push(await repo.commit('main', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, 'Second\n', T0 + 100));
  main.push(await repo.commit('main', { 'a.txt': 'a2\n', 'b.txt': 'b\n' }, 'Third\n', T0 + 200));
  await repo.branch('old/merged', main[1]!);
  await repo.branch('same-as-main', main[2]!);
  feature = await repo.commit('feature/x', { 'a.txt': 'a\n', 'f.txt': 'f\n' }, 'Feature\n', T0 + 150, [main[0]!]);
  annotated = await repo.tag('v1.0', main[0]!, 'Release one\n');
  await repo.tag('v2.0', main[2]!);
});

const url = (rest: string) => `/projects/${project.id}/repository${rest}`;

describe('branches', () => {
  it('lists by name with merged, protected, default, can_push and pagination headers', async () => {
    const res = await api.get(url('/branches'), { token: developer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((b: any) => [b.name, b.merged, b.protected, b.default, b.can_push])).toEqual([
      ['feature/x', false, false, false, true],
      ['main', false, true, true, false],
      ['old/merged', true, false, false, true],
      ['same-as-main', false, false, false, true],
    ]);
    expect(res.headers.get('x-total')).toBe('4');
    const mainBranch = res.body[1];
    expect(mainBranch).toEqual({
      name: 'main',
      commit: expect.objectContaining({ id: main[2], short_id: main[2]!.slice(0, 8), title: 'Third', parent_ids: [main[1]] }),
      merged: false,
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      default: true,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/tree/main`,
    });
    expect((await api.get(url('/branches'), { token: owner.token })).body[1].can_push).toBe(true);
  });

  it('search and pages', async () => {
    expect((await api.get(url('/branches'), { token: owner.token, query: { search: 'MERGED' } })).body.map((b: any) => b.name)).toEqual(['old/merged']);
    expect((await api.get(url('/branches'), { token: owner.token, query: { search: '^f' } })).body.map((b: any) => b.name)).toEqual(['feature/x']);
    const updated = await api.get(url('/branches'), { token: owner.token, query: { sort: 'updated_desc' } });
    expect(updated.body.map((b: any) => b.name)).toEqual(['main', 'same-as-main', 'feature/x', 'old/merged']);
    const page = await api.get(url('/branches'), { token: owner.token, query: { per_page: 1, page: 2 } });
    expect(page.body.map((b: any) => b.name)).toEqual(['main']);
    expect(page.headers.get('x-next-page')).toBe('3');
  });

  it('one branch by URL-encoded name; 404 Branch Not Found', async () => {
    const res = await api.get(url(`/branches/${encodeURIComponent('feature/x')}`), { token: owner.token });
    expect(res.body).toMatchObject({
      name: 'feature/x',
      commit: { id: feature, parent_ids: [main[0]] },
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/tree/feature/x`,
    });
    expect(await api.get(url('/branches/nope'), { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
  });
});

describe('tags', () => {
  it('annotated and lightweight, newest commit first by default, with pagination headers', async () => {
    const res = await api.get(url('/tags'), { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { name: 'v2.0', message: '', target: main[2], commit: expect.objectContaining({ id: main[2] }), release: null, protected: false },
      { name: 'v1.0', message: 'Release one\n', target: annotated, commit: expect.objectContaining({ id: main[0] }), release: null, protected: false },
    ]);
    expect(res.headers.get('x-total')).toBe('2');
    expect((await api.get(url('/tags'), { token: owner.token, query: { order_by: 'name', sort: 'asc' } })).body.map((t: any) => t.name)).toEqual([
      'v1.0',
      'v2.0',
    ]);
    expect((await api.get(url('/tags'), { token: owner.token, query: { search: '1.' } })).body.map((t: any) => t.name)).toEqual(['v1.0']);
  });
});

describe('commits', () => {
  it('lists the default branch newest first with the Commit entity and a correct Link', async () => {
    const res = await api.get(url('/commits'), { token: owner.token, query: { per_page: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((c: any) => c.id)).toEqual([main[2], main[1]]);
    expect(res.body[0]).toEqual({
      id: main[2],
      short_id: main[2]!.slice(0, 8),
      created_at: '2020-09-13T13:30:00.000+01:00',
      parent_ids: [main[1]],
      title: 'Third',
      message: 'Third\n',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.com',
      authored_date: '2020-09-13T13:30:00.000+01:00',
      committer_name: 'Ada Lovelace',
      committer_email: 'ada@example.com',
      committed_date: '2020-09-13T13:30:00.000+01:00',
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/commit/${main[2]}`,
    });
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    const base = `${TEST_PUBLIC_URL}/api/v4/projects/${project.id}/repository/commits`;
    expect(res.headers.get('link')).toBe(
      `<${base}?per_page=2&page=2>; rel="next", <${base}?per_page=2&page=1>; rel="first", <${base}?per_page=2&page=2>; rel="last"`,
    );
    const last = await api.get(url('/commits'), { token: owner.token, query: { per_page: 2, page: 2 } });
    expect(last.body.map((c: any) => c.id)).toEqual([main[0]]);
    expect(last.headers.get('x-prev-page')).toBe('1');
  });

  it('ref_name, path, since/until, first_parent; an unknown ref or an empty repository lists nothing', async () => {
    const ids = async (query: Record<string, string | boolean>) => (await api.get(url('/commits'), { token: owner.token, query })).body.map((c: any) => c.id);
    expect(await ids({ ref_name: 'feature/x' })).toEqual([feature, main[0]]);
    expect(await ids({ ref_name: 'v1.0' })).toEqual([main[0]]);
    expect(await ids({ path: 'b.txt' })).toEqual([main[1]]);
    expect(await ids({ path: 'a.txt' })).toEqual([main[2], main[0]]);
    expect(await ids({ since: new Date((T0 + 100) * 1000).toISOString() })).toEqual([main[2], main[1]]);
    expect(await ids({ until: new Date((T0 + 100) * 1000).toISOString() })).toEqual([main[1], main[0]]);
    expect(await ids({ first_parent: true })).toEqual([main[2], main[1], main[0]]);
    const unknown = await api.get(url('/commits'), { token: owner.token, query: { ref_name: 'nope' } });
    expect(unknown).toMatchObject({ status: 200, body: [] });
    expect(unknown.headers.get('x-total')).toBe('0');
    const empty = await createProject(owner.token);
    expect(await api.get(`/projects/${empty.id}/repository/commits`, { token: owner.token })).toMatchObject({ status: 200, body: [] });
  });

  it.each([
    [{ per_page: 0 }, { error: 'per_page does not have a valid value' }],
    [{ page: 'x' }, { error: 'page is invalid' }],
    [{ since: 'yesterday' }, { error: 'since is invalid' }],
    [{ order: 'random' }, { error: 'order does not have a valid value' }],
  ])('400 for %j', async (query, body) => {
    const res = await api.get(url('/commits'), { token: owner.token, query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });

  it('one commit by id, abbreviated id, branch or tag; 404 Commit Not Found', async () => {
    const res = await api.get(url(`/commits/${main[0]}`), { token: owner.token });
    expect(res.body).toMatchObject({
      id: main[0],
      title: 'First',
      message: 'First\n\nBody\n',
      parent_ids: [],
      status: null,
      project_id: project.id,
      last_pipeline: null,
    });
    expect((await api.get(url(`/commits/${main[1]!.slice(0, 7)}`), { token: owner.token })).body.id).toBe(main[1]);
    expect((await api.get(url('/commits/main'), { token: owner.token })).body.id).toBe(main[2]);
    expect((await api.get(url(`/commits/${encodeURIComponent('feature/x')}`), { token: owner.token })).body.id).toBe(feature);
    expect((await api.get(url('/commits/v1.0'), { token: owner.token })).body.id).toBe(main[0]);
    expect(await api.get(url('/commits/nope'), { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await api.get(url(`/commits/${'0'.repeat(40)}`), { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
  });
});
