// GET repository/contributors (GitLab 13.6 repositories.rb, Repository#contributors, Commit.order_by): the authors of
// the default branch's non-merge commits grouped by email (exactly), the first non-blank name, Entities::Contributor
// with `additions`/`deletions` always 0, order_by/sort with their defaults (commits, asc), pagination headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { findRef } from '../../../db/queries/repositories/refs.ts';
import { encodeCommit } from '../../../functions/repositories/git/commit.ts';
import { hashObject } from '../../../functions/repositories/git/oid.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { ObjectBuilder } from '../../repositories/store-support.ts';
import { RepoWriter } from './read-support.ts';

let owner: { token: string };
let guest: { token: string };
let stranger: { token: string };
let id: number;
let clock = 1_600_000_000;

/** A commit by `name <email>` on `branch` (parents: the branch's tip, or `parents`), `file` changed to `text`. */
async function commitAs(branch: string, name: string, email: string, text: string, parents?: string[], project = id) {
  const repo = await RepoWriter.open(project);
  const b = new ObjectBuilder();
  const tip = await findRef(testDb().db, project, `refs/heads/${branch}`);
  const tree = await b.tree({ 'file.txt': text });
  clock += 60;
  const who = { name, email, time: clock, tz: '+0000' };
  const body = encodeCommit({
    tree,
    parents: parents ?? (tip ? [tip] : []),
    author: who,
    committer: who,
    headers: [],
    message: new TextEncoder().encode(`${text}\n`),
  });
  const oid = await hashObject('commit', body);
  await applyWrite(testDb(), repo.poolId, await prepareWrite([...b.take(), { type: 'commit', body }]), [
    { projectId: project, name: `refs/heads/${branch}`, old: tip ?? null, new: oid },
  ]);
  return oid;
}

const get = (query: Record<string, string | number> = {}, token = owner.token) => api.get(`/projects/${id}/repository/contributors`, { token, query });
const entry = (name: string, email: string, commits: number) => ({ name, email, commits, additions: 0, deletions: 0 });

beforeAll(async () => {
  [owner, guest, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  id = (await createProject(owner.token)).id;
  await addMember(owner.token, 'projects', id, (await api.get('/user', { token: guest.token })).body.id, 10);
  // Oldest first: newest first is the order emails first appear in (the order of ties).
  await commitAs('main', 'Ada Lovelace', 'ada@example.com', 'a1');
  await commitAs('main', 'Carol', 'carol@example.com', 'c1');
  await commitAs('main', 'bob', 'bob@example.com', 'b1');
  await commitAs('main', 'Ada L.', 'ada@example.com', 'a2');
  await commitAs('main', '  ', 'carol@example.com', 'c2'); // Carol's newest has a blank name: the next one is taken
  const side = await commitAs('topic', 'Topic Only', 'topic@example.com', 't1', [(await findRef(testDb().db, id, 'refs/heads/main')) as string]);
  const main = (await findRef(testDb().db, id, 'refs/heads/main'))!;
  await commitAs('main', 'Dan Merger', 'dan@example.com', 'merged', [main, side]); // a merge: not counted
  await commitAs('main', 'BOB', 'BOB@example.com', 'b2'); // another email (case counts): another contributor
  await commitAs('main', 'Ada Lovelace', 'ada@example.com', 'a3');
});

describe('GET repository/contributors', () => {
  it("groups the default branch's non-merge commits by email; commits asc by default, ties newest first", async () => {
    const res = await get();
    expect(res.status, res.text).toBe(200);
    // The merge's second parent (topic's commit) is on the default branch's history: its author counts.
    expect(res.text).toBe(
      JSON.stringify([
        entry('BOB', 'BOB@example.com', 1),
        entry('Topic Only', 'topic@example.com', 1),
        entry('bob', 'bob@example.com', 1),
        entry('Carol', 'carol@example.com', 2),
        entry('Ada Lovelace', 'ada@example.com', 3),
      ]),
    );
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('20');
  });

  it.each([
    ['commits', 'desc', ['ada@example.com', 'carol@example.com', 'BOB@example.com', 'topic@example.com', 'bob@example.com']],
    // casecmp: "bob" and "BOB" compare equal (the collection's order stays), then Carol, Topic Only.
    ['name', 'asc', ['ada@example.com', 'BOB@example.com', 'bob@example.com', 'carol@example.com', 'topic@example.com']],
    ['name', 'desc', ['topic@example.com', 'carol@example.com', 'BOB@example.com', 'bob@example.com', 'ada@example.com']],
    ['email', 'asc', ['ada@example.com', 'BOB@example.com', 'bob@example.com', 'carol@example.com', 'topic@example.com']],
  ])('order_by=%s sort=%s', async (order_by, sort, emails) => {
    const res = await get({ order_by, sort });
    expect(res.body.map((c: { email: string }) => c.email)).toEqual(emails);
  });

  it('sort alone keeps the default order_by (commits)', async () => {
    const res = await get({ sort: 'desc' });
    expect(res.body[0]).toEqual(entry('Ada Lovelace', 'ada@example.com', 3));
  });

  it("pages with GitLab's headers", async () => {
    const res = await get({ per_page: 2, page: 2 });
    expect(res.body.map((c: { email: string }) => c.email)).toEqual(['bob@example.com', 'carol@example.com']);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it.each([
    [{ order_by: 'date' }, 'order_by does not have a valid value'],
    [{ sort: 'up' }, 'sort does not have a valid value'],
    [{ per_page: 0 }, 'per_page does not have a valid value'],
  ])('%j: 400', async (query, error) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it('the project is checked before the parameters (repositories.rb authorizes in a `before` block)', async () => {
    expect(await get({ order_by: 'date' }, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await get({ sort: 'up' }, guest.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('an empty repository: []', async () => {
    const empty = (await createProject(owner.token)).id;
    const res = await api.get(`/projects/${empty}/repository/contributors`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });

  it("counts the 2,000 newest non-merge commits only (Repository#contributors' limit)", async () => {
    const big = (await createProject(owner.token)).id;
    await commitAs('main', 'Old Timer', 'old@example.com', 'o1', undefined, big);
    await commitAs('main', 'Ada Lovelace', 'ada@example.com', 'a1', undefined, big);
    await (await RepoWriter.open(big)).commits('main', 1999, (i) => ({ 'file.txt': `${i}\n` }), clock + 60);
    const res = await api.get(`/projects/${big}/repository/contributors`, { token: owner.token });
    expect(res.body).toEqual([entry('Ada Lovelace', 'ada@example.com', 2000)]);
  });

  it("costs 3 queries with the token's", async () => {
    await get();
    expect(queryCount(await get())).toBeLessThanOrEqual(3);
  });

  it('a guest of the private project: 403; a stranger and an anonymous caller: 404 Project Not Found', async () => {
    expect(await get({}, guest.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await get({}, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(`/projects/${id}/repository/contributors`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describeAuthorization('GET /projects/:id/repository/contributors', {
  fixture: async () => ({ allowed: owner.token, nonMember: stranger.token, insufficientRole: guest.token }),
  call: (_fx, token) => api.get(`/projects/${id}/repository/contributors`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
