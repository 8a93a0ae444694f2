// GET repository/commits/:sha/refs (GitLab 13.6 commits.rb): the branches, then the tags, whose commit is the given
// one or has it as an ancestor (annotated tags peeled), each by name in byte order (git for-each-ref), as
// Entities::BasicRef, paginated; 404 Commit Not Found; `type` branch|tag|all.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { testDb } from '../../helpers/app.ts';
import { ObjectBuilder } from '../../repositories/store-support.ts';
import { RepoWriter } from './read-support.ts';

let owner: { token: string };
let guest: { token: string };
let stranger: { token: string };
let id: number;
let publicId: number;
const c: Record<string, string> = {};

/** `token` null: anonymous. */
const refsOf = (sha: string, query: Record<string, string | number> = {}, token: string | null = owner.token, project = id) =>
  api.get(`/projects/${project}/repository/commits/${encodeURIComponent(sha)}/refs`, { token: token ?? undefined, query });
const names = (body: { type: string; name: string }[]) => body.map((r) => `${r.type}:${r.name}`);

beforeAll(async () => {
  [owner, guest, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  id = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  await addMember(owner.token, 'projects', id, (await api.get('/user', { token: guest.token })).body.id, 10);
  const repo = await RepoWriter.open(id);
  //   A - B - C - M (main)        tags: v1 -> A (lightweight), v2 -> C (annotated), vd -> D (annotated)
  //        \     /                branches: main, feature -> D, Zeta -> A, old -> B
  //         D --'                 (M merges D into main)
  c.A = await repo.commit('main', { f: 'a\n' }, 'A\n', 1_600_000_000);
  c.B = await repo.commit('main', { f: 'b\n' }, 'B\n', 1_600_000_060);
  c.D = await repo.commit('feature', { f: 'd\n' }, 'D\n', 1_600_000_120, [c.B]);
  c.C = await repo.commit('main', { f: 'c\n' }, 'C\n', 1_600_000_180);
  await repo.branch('Zeta', c.A);
  await repo.branch('old', c.B);
  await repo.tag('v1', c.A);
  await repo.tag('v2', c.C, 'Release 2\n');
  await repo.tag('vd', c.D, 'On D\n');
  // The merge comes last: before it, main did not contain D.
  expect(names((await refsOf(c.D)).body)).toEqual(['branch:feature', 'tag:vd']);
  c.M = await repo.commit('main', { f: 'm\n' }, 'Merge\n', 1_600_000_240, [c.C, c.D]);
  const pub = await RepoWriter.open(publicId);
  await pub.commit('main', { f: 'x\n' }, 'X\n', 1_600_000_000);
});

describe('GET repository/commits/:sha/refs', () => {
  it('every ref containing the root commit: branches then tags, each in byte order', async () => {
    const res = await refsOf(c.A!);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { type: 'branch', name: 'Zeta' },
      { type: 'branch', name: 'feature' },
      { type: 'branch', name: 'main' },
      { type: 'branch', name: 'old' },
      { type: 'tag', name: 'v1' },
      { type: 'tag', name: 'v2' },
      { type: 'tag', name: 'vd' },
    ]);
    expect(res.headers.get('x-total')).toBe('7');
  });

  it.each([
    ['B', {}, ['branch:feature', 'branch:main', 'branch:old', 'tag:v2', 'tag:vd']],
    ['B', { type: 'branch' }, ['branch:feature', 'branch:main', 'branch:old']],
    ['B', { type: 'tag' }, ['tag:v2', 'tag:vd']],
    ['B', { type: 'all' }, ['branch:feature', 'branch:main', 'branch:old', 'tag:v2', 'tag:vd']],
    // An annotated tag is peeled to its commit; a merge brings its second parent's history in.
    ['C', {}, ['branch:main', 'tag:v2']],
    ['D', {}, ['branch:feature', 'branch:main', 'tag:vd']],
    ['M', {}, ['branch:main']],
  ])('commit %s %j', async (commit, query, expected) => {
    expect(names((await refsOf(c[commit]!, query)).body)).toEqual(expected);
  });

  it('takes any revision the commit endpoints take: a branch, a tag, an abbreviated id', async () => {
    expect(names((await refsOf('feature')).body)).toEqual(['branch:feature', 'branch:main', 'tag:vd']);
    expect(names((await refsOf('v2')).body)).toEqual(['branch:main', 'tag:v2']);
    expect(names((await refsOf(c.C!.slice(0, 10))).body)).toEqual(['branch:main', 'tag:v2']);
  });

  it("pages with GitLab's headers", async () => {
    const res = await refsOf(c.A!, { per_page: 3, page: 2 });
    expect(names(res.body)).toEqual(['branch:old', 'tag:v1', 'tag:v2']);
    expect(res.headers.get('x-total')).toBe('7');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
  });

  it.each([
    ['an unknown commit', '0'.repeat(40), {}, 404, { message: '404 Commit Not Found' }],
    ['an unknown name', 'nope', {}, 404, { message: '404 Commit Not Found' }],
    ['a bad type', 'main', { type: 'branches' }, 400, { error: 'type does not have a valid value' }],
    ['an empty type', 'main', { type: '' }, 400, { error: 'type does not have a valid value' }],
    ['a bad page', 'main', { page: 0 }, 400, { error: 'page does not have a valid value' }],
  ])('%s: %s', async (_name, sha, query, status, body) => {
    const res = await refsOf(sha, query);
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('a commit no ref reaches any more (its branch deleted): []', async () => {
    const b = new ObjectBuilder();
    const loose = await b.commit(await b.tree({ f: 'loose\n' }), [c.M!], 'Loose\n', 1_600_000_300);
    const poolId = (await findRepository(testDb().db, id))!.poolId;
    await applyWrite(testDb(), poolId, await prepareWrite(b.take()), [{ projectId: id, name: 'refs/heads/gone', old: null, new: loose }]);
    await applyWrite(testDb(), poolId, await prepareWrite([]), [{ projectId: id, name: 'refs/heads/gone', old: loose, new: null }]);
    const res = await refsOf(loose);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });

  it("costs 3 queries with the token's, however long the history", async () => {
    await refsOf(c.A!);
    expect(queryCount(await refsOf(c.A!))).toBeLessThanOrEqual(3);
    const { token } = await createUser();
    const long = (await createProject(token)).id;
    const repo = await RepoWriter.open(long);
    const oids = await repo.commits('main', 300, (i) => ({ f: `${i}\n` }), 1_600_000_000);
    await repo.branch('early', oids[10]!);
    await repo.tag('late', oids[290]!, 'Late\n');
    await api.get('/user', { token }); // the token's first use records last_used_at: not part of what is measured
    const res = await api.get(`/projects/${long}/repository/commits/${oids[5]}/refs`, { token });
    expect(names(res.body)).toEqual(['branch:early', 'branch:main', 'tag:late']);
    expect(queryCount(res)).toBeLessThanOrEqual(3);
    expect(names((await api.get(`/projects/${long}/repository/commits/${oids[295]}/refs`, { token })).body)).toEqual(['branch:main']);
  });

  it('the project is checked before the parameters (commits.rb authorizes in a `before` block)', async () => {
    expect(await refsOf('main', { type: 'bad' }, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await refsOf('main', { type: 'bad' }, guest.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('a guest of the private project: 403; a stranger and an anonymous caller: 404; anyone reads a public one', async () => {
    expect(await refsOf('main', {}, guest.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await refsOf('main', {}, stranger.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await refsOf('main', {}, null)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await refsOf('main', {}, null, publicId)).toMatchObject({ status: 200, body: [{ type: 'branch', name: 'main' }] });
  });
});

describeAuthorization('GET /projects/:id/repository/commits/:sha/refs', {
  fixture: async () => ({ allowed: owner.token, nonMember: stranger.token, insufficientRole: guest.token }),
  call: (_fx, token) => refsOf('main', {}, token ?? null),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
