// Every project has a repository from its creating transaction: `initialize_with_readme` makes GitLab 13.6's first
// commit (README.md "# <name>\n\n<description>", "Initial commit", on `default_branch` or master, by the creator,
// with its push event); the entity's default_branch/empty_repo/readme_url say the truth; a fork joins its source's
// object pool and copies its refs, adding O(1) rows and a constant number of queries whatever the repository's size.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const uniqueName = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

async function rowCount(table: string): Promise<number> {
  const result = (await testDb().db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]!.n);
}
const repositoryRows = async () => ({
  objects: await rowCount('git_objects'),
  entries: await rowCount('git_tree_entries'),
  commits: await rowCount('git_commits'),
});

describe('a project and its repository', () => {
  it('without initialize_with_readme: an empty repository', async () => {
    const { token } = await createUser();
    const res = await api.post('/projects', { token, body: { name: uniqueName('empty') } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ default_branch: null, empty_repo: true, readme_url: null });
    expect((await api.get(`/projects/${(res.body as { id: number }).id}/repository/branches`, { token })).body).toEqual([]);
  });

  it('initialize_with_readme: README.md on master by the creator, push event, entity facts', async () => {
    const { token, user } = await createUser();
    const name = uniqueName('readme');
    const res = await api.post('/projects', { token, body: { name, description: 'About it', initialize_with_readme: true } });
    expect(res.status, res.text).toBe(201);
    const p = res.body as { id: number; path_with_namespace: string };
    expect(res.body).toMatchObject({
      default_branch: 'master',
      empty_repo: false,
      readme_url: `${TEST_PUBLIC_URL}/${p.path_with_namespace}/-/blob/master/README.md`,
    });
    const file = await api.get(`/projects/${p.id}/repository/files/README.md`, { token, query: { ref: 'master' } });
    expect(Buffer.from((file.body as { content: string }).content, 'base64').toString()).toBe(`# ${name}\n\nAbout it`);
    const [commit] = (await api.get(`/projects/${p.id}/repository/commits`, { token })).body as Record<string, unknown>[];
    expect(commit).toMatchObject({
      title: 'Initial commit',
      parent_ids: [],
      author_name: (user as { name: string }).name,
      author_email: (user as { email: string }).email,
    });
    const events = (await api.get(`/projects/${p.id}/events`, { token })).body as { action_name: string; push_data?: unknown }[];
    expect(events.map((e) => e.action_name)).toEqual(['pushed new', 'created']);
    expect(events[0]!.push_data).toEqual({
      commit_count: 1,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: commit!.id,
      ref: 'master',
      commit_title: 'Initial commit',
      ref_count: null,
    });
    // Listings carry the same facts.
    const listed = (await api.get('/projects', { token, query: { owned: true } })).body as { id: number; empty_repo: boolean; default_branch: string }[];
    expect(listed.find((x) => x.id === p.id)).toMatchObject({ empty_repo: false, default_branch: 'master' });
  });

  it('default_branch names the first branch', async () => {
    const { token } = await createUser();
    const res = await api.post('/projects', { token, body: { name: uniqueName('main'), initialize_with_readme: true, default_branch: 'main' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ default_branch: 'main', empty_repo: false });
    const branches = (await api.get(`/projects/${(res.body as { id: number }).id}/repository/branches`, { token })).body as {
      name: string;
      default: boolean;
    }[];
    expect(branches.map((b) => [b.name, b.default])).toEqual([['main', true]]);
  });

  it('PUT default_branch moves HEAD to an existing branch', async () => {
    const { token } = await createUser();
    const res = await api.post('/projects', { token, body: { name: uniqueName('head'), initialize_with_readme: true } });
    const id = (res.body as { id: number }).id;
    expect((await api.post(`/projects/${id}/repository/branches`, { token, body: { branch: 'next', ref: 'master' } })).status).toBe(201);
    const put = await api.put(`/projects/${id}`, { token, body: { default_branch: 'next' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ default_branch: 'next' });
    // master is no longer the default but keeps the protection its first push gave it (GitLab's ProtectedBranch row
    // outlives the default branch setting): deleted only once unprotected. next is the default: never deleted.
    expect((await api.delete(`/projects/${id}/repository/branches/master`, { token })).body).toEqual({
      message: 'You can only delete protected branches using the web interface.',
    });
    expect((await api.delete(`/projects/${id}/protected_branches/master`, { token })).status).toBe(204);
    expect((await api.delete(`/projects/${id}/repository/branches/master`, { token })).status).toBe(204);
    expect((await api.delete(`/projects/${id}/repository/branches/next`, { token })).body).toEqual({
      message: 'The default branch of a project cannot be deleted.',
    });
  });

  it("PUT default_branch naming a missing branch: 400 with Project#change_head's base error, nothing saved", async () => {
    const { token } = await createUser();
    const res = await api.post('/projects', { token, body: { name: uniqueName('nohead'), initialize_with_readme: true, description: 'before' } });
    const id = (res.body as { id: number }).id;
    const put = await api.put(`/projects/${id}`, { token, form: { default_branch: 'nope', description: 'after' } });
    expect(put.status, put.text).toBe(400);
    expect(put.body).toEqual({ message: { base: ["Could not change HEAD: branch 'nope' does not exist"] } });
    expect((await api.get(`/projects/${id}`, { token })).body).toMatchObject({ default_branch: 'master', description: 'before' });
    // The current default branch is no change at all.
    expect((await api.put(`/projects/${id}`, { token, body: { default_branch: 'master' } })).status).toBe(200);
  });

  it('the first commit of an empty repository needs a maintainer and makes its branch the default', async () => {
    const owner = await createUser();
    const developer = await createUser();
    const res = await api.post('/projects', { token: owner.token, body: { name: uniqueName('first') } });
    const id = (res.body as { id: number }).id;
    await api.post(`/projects/${id}/members`, { token: owner.token, body: { user_id: developer.user.id, access_level: 30 } });
    const body = { branch: 'trunk', commit_message: 'First', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] };
    const refused = await api.post(`/projects/${id}/repository/commits`, { token: developer.token, body });
    expect(refused.status).toBe(403);
    const first = await api.post(`/projects/${id}/repository/commits`, { token: owner.token, body });
    expect(first.status, first.text).toBe(201);
    expect((first.body as { parent_ids: string[] }).parent_ids).toEqual([]);
    expect((await api.get(`/projects/${id}`, { token: owner.token })).body).toMatchObject({ default_branch: 'trunk', empty_repo: false, readme_url: null });
  });

  it('a fork shares the objects, carries the refs, and costs the same whatever the size', async () => {
    const { token } = await createUser();
    const forkOf = async (files: number) => {
      const src = await api.post('/projects', { token, body: { name: uniqueName('src'), initialize_with_readme: true } });
      const id = (src.body as { id: number }).id;
      if (files) {
        const actions = Array.from({ length: files }, (_, i) => ({ action: 'create', file_path: `d${i % 10}/f${i}.txt`, content: `file ${i}` }));
        expect((await api.post(`/projects/${id}/repository/commits`, { token, body: { branch: 'master', commit_message: 'many', actions } })).status).toBe(201);
        expect((await api.post(`/projects/${id}/repository/branches`, { token, body: { branch: 'other', ref: 'master' } })).status).toBe(201);
      }
      const before = await repositoryRows();
      const fork = await api.post(`/projects/${id}/fork`, { token, body: { path: uniqueName('fork'), name: uniqueName('fork') } });
      expect(fork.status, fork.text).toBe(201);
      expect(await repositoryRows()).toEqual(before);
      return { source: id, fork: fork.body as { id: number; default_branch: string; empty_repo: boolean }, queries: queryCount(fork) };
    };
    const small = await forkOf(0);
    const large = await forkOf(300);
    expect(large.queries).toBeLessThanOrEqual(small.queries);
    // The budget: the source, the namespace, one batch (two statements) and the answer's read.
    expect(small.queries).toBeLessThanOrEqual(6);
    console.log(`fork: ${small.queries} queries (empty-ish and 300-file repositories alike)`);
    expect(large.fork).toMatchObject({ default_branch: 'master', empty_repo: false });
    const branches = (await api.get(`/projects/${large.fork.id}/repository/branches`, { token })).body as { name: string; commit: { id: string } }[];
    const sourceBranches = (await api.get(`/projects/${large.source}/repository/branches`, { token })).body as { name: string; commit: { id: string } }[];
    expect(branches.map((b) => [b.name, b.commit.id])).toEqual(sourceBranches.map((b) => [b.name, b.commit.id]));
    // The fork moves on its own; the source does not see it.
    const c = await api.post(`/projects/${large.fork.id}/repository/commits`, {
      token,
      body: { branch: 'other', commit_message: 'in fork', actions: [{ action: 'create', file_path: 'fork.txt', content: 'f' }] },
    });
    expect(c.status, c.text).toBe(201);
    expect(
      ((await api.get(`/projects/${large.source}/repository/commits`, { token, query: { ref_name: 'other' } })).body as { title: string }[])[0]!.title,
    ).toBe('many');
  });
});
