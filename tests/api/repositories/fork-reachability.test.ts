// A pool is storage, never a permission (issue 28, item 1): forks share one object pool, but through a project only
// the objects reachable from that project's own refs are readable (git_project_objects). An id another project of
// the network alone reaches -- full or abbreviated, commit, tree or blob -- answers exactly as an id that does not
// exist, at every door that takes one: REST files, raw files, tree, blobs, commits, diffs, refs, compare, archive,
// merge_base, and GraphQL's repository tree. The three confirmed variants of the leak are tested as found:
//   (a) a private fork's commits read anonymously through the public project it was forked from;
//   (b) a reporter removed from a private project reads its new commits through the fork made while a member;
//   (c) a project made private read, new commits included, through an earlier public fork.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { api, testDb, type TestResponse } from '../../helpers/app.ts';
import { ObjectBuilder } from '../../repositories/store-support.ts';
import { gql } from '../../graphql/helpers.ts';

type User = { token: string; id: number };
const user = async (): Promise<User> => {
  const u = await createUser();
  return { token: u.token, id: u.user.id };
};

/** One commit on `branch` through the commits API; answers the commit's id and the new file's blob id. */
async function commit(token: string, projectId: number, branch: string, path: string, content: string, start?: string) {
  const res = await api.post(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch, commit_message: `Add ${path}`, actions: [{ action: 'create', file_path: path, content }], ...(start ? { start_branch: start } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  const file = await api.get(`/projects/${projectId}/repository/files/${encodeURIComponent(path)}`, { token, query: { ref: res.body.id } });
  expect(file.status, file.text).toBe(200);
  return { sha: res.body.id as string, blob: file.body.blob_id as string };
}

async function fork(token: string, projectId: number, visibility?: 'private' | 'public') {
  const path = unique('fork');
  const res = await api.post(`/projects/${projectId}/fork`, { token, body: { name: path, path } });
  expect(res.status, res.text).toBe(201);
  if (visibility) expect((await api.put(`/projects/${res.body.id}`, { token, body: { visibility } })).status).toBe(200);
  return res.body as { id: number; path_with_namespace: string };
}

/** Every read that takes an object id, for one id (a commit's, with its blob's and its file's path). */
const reads = (projectId: number, c: { sha: string; blob: string; path: string }) => [
  `/projects/${projectId}/repository/commits/${c.sha}`,
  `/projects/${projectId}/repository/commits/${c.sha.slice(0, 7)}`,
  `/projects/${projectId}/repository/commits/${c.sha.slice(0, 4)}`,
  `/projects/${projectId}/repository/commits/${c.sha}/diff`,
  `/projects/${projectId}/repository/commits/${c.sha}/refs`,
  `/projects/${projectId}/repository/commits/${c.sha}/comments`,
  `/projects/${projectId}/repository/commits?ref_name=${c.sha}`,
  `/projects/${projectId}/repository/files/${encodeURIComponent(c.path)}?ref=${c.sha}`,
  `/projects/${projectId}/repository/files/${encodeURIComponent(c.path)}/raw?ref=${c.sha}`,
  `/projects/${projectId}/repository/files/${encodeURIComponent(c.path)}/blame?ref=${c.sha}`,
  `/projects/${projectId}/repository/tree?ref=${c.sha}`,
  `/projects/${projectId}/repository/blobs/${c.blob}`,
  `/projects/${projectId}/repository/blobs/${c.blob}/raw`,
  `/projects/${projectId}/repository/compare?from=main&to=${c.sha}`,
  `/projects/${projectId}/repository/compare?from=${c.sha}&to=main`,
  `/projects/${projectId}/repository/archive.zip?sha=${c.sha}`,
  `/projects/${projectId}/repository/merge_base?refs[]=main&refs[]=${c.sha}`,
];

/** An id of the same shape that exists nowhere: what every read of a foreign id must answer, byte for byte. */
const NOWHERE = { sha: 'deadbeef'.repeat(5), blob: 'feedface'.repeat(5) };
const nowhere = (c: { sha: string; blob: string; path: string }) => ({
  ...c,
  sha: NOWHERE.sha.slice(0, 4) === c.sha.slice(0, 4) ? 'c0ffee00'.repeat(5) : NOWHERE.sha,
  blob: NOWHERE.blob,
});

const shape = (r: TestResponse, ids: { sha: string; blob: string }) => ({
  status: r.status,
  body: r.text.replaceAll(ids.sha, '<sha>').replaceAll(ids.blob, '<blob>'),
});

type Project = { id: number; path_with_namespace: string };

/** Asserts that every read of `c` through the project answers as a nonexistent id does (a 404, or an empty list). */
async function expectUnreadable(project: Project, c: { sha: string; blob: string; path: string }, token?: string) {
  const as = token ? { token } : {};
  const foreign = reads(project.id, c);
  const absent = reads(project.id, nowhere(c));
  for (const [i, path] of foreign.entries()) {
    const [got, none] = await Promise.all([api.get(path, as), api.get(absent[i]!, as)]);
    // An answer may name the id it was given (merge_base's "Could not find ref"): the same answer, that id aside.
    expect(shape(got, c), path).toEqual(shape(none, nowhere(c)));
  }
  const tree = (ref: string) =>
    gql(`query($p: ID!, $ref: String!) { project(fullPath: $p) { repository { tree(ref: $ref) { lastCommit { sha } blobs { nodes { name } } } } } }`, {
      ...as,
      variables: { p: project.path_with_namespace, ref },
    });
  const [got, none] = await Promise.all([tree(c.sha), tree(nowhere(c).sha)]);
  expect(got.body).toEqual(none.body);
  expect(got.body).toEqual({ data: { project: { repository: { tree: null } } } });
}

let owner: User;
let alice: User;

beforeAll(async () => {
  [owner, alice] = await Promise.all([user(), user()]);
});

describe('(a) a private fork of a public project', () => {
  let source: Project;
  let secret: { sha: string; blob: string; path: string };

  beforeAll(async () => {
    source = await createProject(owner.token, { visibility: 'public' });
    await commit(owner.token, source.id, 'main', 'README.md', '# public\n');
    const forked = await fork(alice.token, source.id, 'private');
    secret = { ...(await commit(alice.token, forked.id, 'main', 'secret.txt', 'private fork secret\n')), path: 'secret.txt' };
    // The fork itself reads its own commit.
    expect((await api.get(`/projects/${forked.id}/repository/commits/${secret.sha}`, { token: alice.token })).status).toBe(200);
  });

  it('its commits, trees and blobs are not readable through the source, anonymously or by the source owner', async () => {
    await expectUnreadable(source, secret);
    await expectUnreadable(source, secret, owner.token);
  });

  it('a merge request from the fork makes its commits readable through the target, as refs/merge-requests/<iid>/head does in GitLab', async () => {
    const forked = await fork(alice.token, source.id);
    const work = { ...(await commit(alice.token, forked.id, 'feature', 'feature.txt', 'for review\n', 'main')), path: 'feature.txt' };
    await expectUnreadable(source, work);
    const mr = await api.post(`/projects/${forked.id}/merge_requests`, {
      token: alice.token,
      body: { source_branch: 'feature', target_branch: 'main', target_project_id: source.id, title: 'Feature' },
    });
    expect(mr.status, mr.text).toBe(201);
    const read = await api.get(`/projects/${source.id}/repository/commits/${work.sha}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.id).toBe(work.sha);
    const refs = await api.get(`/projects/${source.id}/repository/files/feature.txt/raw`, { query: { ref: work.sha } });
    expect(refs).toMatchObject({ status: 200, text: 'for review\n' });
    // The merge request's changes read the fork's blobs through the target.
    const changes = await api.get(`/projects/${source.id}/merge_requests/${mr.body.iid}/changes`);
    expect(changes.status, changes.text).toBe(200);
    expect(changes.body.changes.map((c: { new_path: string }) => c.new_path)).toEqual(['feature.txt']);
  });
});

describe('(b) a reporter removed from a private project', () => {
  it('no longer reads its new commits through the fork made while a member', async () => {
    const project = await createProject(owner.token, { visibility: 'private' });
    await commit(owner.token, project.id, 'main', 'README.md', '# private\n');
    await addMember(owner.token, 'projects', project.id, alice.id, 20);
    const forked = await fork(alice.token, project.id);
    expect((await api.delete(`/projects/${project.id}/members/${alice.id}`, { token: owner.token })).status).toBe(204);
    const later = { ...(await commit(owner.token, project.id, 'main', 'plans.txt', 'after the removal\n')), path: 'plans.txt' };
    await expectUnreadable(forked, later, alice.token);
    // What the fork has of its own is still readable: its main branch's history.
    const log = await api.get(`/projects/${forked.id}/repository/commits`, { token: alice.token, query: { ref_name: 'main' } });
    expect(log.status).toBe(200);
    expect(log.body.map((c: { id: string }) => c.id)).not.toContain(later.sha);
  });
});

describe('(c) a project made private after a public fork', () => {
  it('its new commits are not readable through the earlier public fork', async () => {
    const project = await createProject(owner.token, { visibility: 'public' });
    const before = { ...(await commit(owner.token, project.id, 'main', 'README.md', '# once public\n')), path: 'README.md' };
    const forked = await fork(alice.token, project.id, 'public');
    expect((await api.put(`/projects/${project.id}`, { token: owner.token, body: { visibility: 'private' } })).status).toBe(200);
    const later = { ...(await commit(owner.token, project.id, 'main', 'private.txt', 'private now\n')), path: 'private.txt' };
    await expectUnreadable(forked, later);
    // What the fork had when it was made stays readable through it (it is the fork's own history).
    expect((await api.get(`/projects/${forked.id}/repository/commits/${before.sha}`)).status).toBe(200);
    expect((await api.get(`/projects/${forked.id}/repository/blobs/${before.blob}/raw`)).text).toBe('# once public\n');
  });
});

describe('abbreviated ids', () => {
  it("another project's commit of the same 4-digit prefix neither matches nor makes the prefix ambiguous", async () => {
    const source = await createProject(owner.token, { visibility: 'public' });
    const mine = await commit(owner.token, source.id, 'main', 'README.md', '# mine\n');
    const forked = await fork(alice.token, source.id, 'private');
    // A fork commit whose id shares the source commit's first 4 hex digits (about 65,536 tries, hashes only).
    const prefix = mine.sha.slice(0, 4);
    const b = new ObjectBuilder();
    const tree = await b.tree({ 'collide.txt': 'collide\n' });
    const treeObjects = b.take();
    let twin = '';
    for (let t = 1_700_000_000; !twin.startsWith(prefix); t++) {
      twin = await b.commit(tree, [mine.sha], 'Collide\n', t);
      if (!twin.startsWith(prefix)) b.take();
    }
    const poolId = (await findRepository(testDb().db, forked.id))!.poolId;
    await applyWrite(testDb(), poolId, await prepareWrite([...treeObjects, ...b.take()]), [
      { projectId: forked.id, name: 'refs/heads/collide', old: null, new: twin },
    ]);

    const seen = await api.get(`/projects/${source.id}/repository/commits/${prefix}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.id).toBe(mine.sha);
    // Through the fork, which reaches both, the prefix is ambiguous: no commit, as git answers.
    expect(await api.get(`/projects/${forked.id}/repository/commits/${prefix}`, { token: alice.token })).toMatchObject({
      status: 404,
      body: { message: '404 Commit Not Found' },
    });
    expect((await api.get(`/projects/${forked.id}/repository/commits/${twin.slice(0, 6)}`, { token: alice.token })).body.id).toBe(twin);
  });
});

describe('concurrent writes', () => {
  it('parallel commits adding the same blobs and trees on eight branches all land, each readable, none deadlocked', async () => {
    const project = await createProject(owner.token);
    await commit(owner.token, project.id, 'main', 'README.md', '# shared\n');
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`d${i % 4}/f${i}.txt`, `same content ${i}\n`]));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.post(`/projects/${project.id}/repository/commits`, {
          token: owner.token,
          body: {
            branch: `b${i}`,
            start_branch: 'main',
            commit_message: `Same files ${i}`,
            actions: Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content })),
          },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    for (const r of results) {
      const raw = await api.get(`/projects/${project.id}/repository/files/d3%2Ff19.txt/raw`, { token: owner.token, query: { ref: r.body.id } });
      expect(raw).toMatchObject({ status: 200, text: 'same content 19\n' });
    }
  });
});
