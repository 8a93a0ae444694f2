// Forks share their source's object pool: forking (POST /projects/:id/fork, whose one write is
// db/queries/repositories/forks.ts) copies no object (the repository row, a copy of the refs, and a copy of the source's
// readable set, git_project_objects, one row per object id: the pool is not a permission), and
// deleting a project never removes objects another repository reaches; the pool goes with the last repository that
// uses it.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteUnusedPools, findRef, findRepository } from '../../db/queries/repositories/refs.ts';
import { logPage, readPath } from '../../db/queries/repositories/reads.ts';
import { applyWrite, prepareWrite } from '../../functions/repositories/store/store.ts';
import { deleteUnusedObjectPools, purgeDeleted } from '../../functions/housekeeping/service.ts';
import { api, testDb } from '../helpers/app.ts';
import { count, nested, ObjectBuilder, projectWithRepository } from './store-support.ts';

const DEEP = 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt';

let source: Awaited<ReturnType<typeof projectWithRepository>>;
let head: string;

/** Every row a pool holds, table by table. */
const poolRows = async (poolId: number) => ({
  objects: await count('git_objects', `pool_id = ${poolId}`),
  commits: await count('git_commits', `pool_id = ${poolId}`),
  entries: await count('git_tree_entries', `pool_id = ${poolId}`),
  paths: await count('git_commit_paths', `pool_id = ${poolId}`),
});

/** Forks `projectId` through the API, as its owner. */
async function fork(projectId: number, token: string): Promise<{ id: number }> {
  const name = `fork-${projectId}-${Math.random().toString(36).slice(2, 9)}`;
  const res = await api.post(`/projects/${projectId}/fork`, { token, body: { name, path: name } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

beforeAll(async () => {
  source = await projectWithRepository();
  const b = new ObjectBuilder();
  // 200 files, so that a per-object copy could not hide in the counts below.
  const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`file-${i}.txt`, `content ${i}\n`]));
  head = await b.commit(await b.tree({ ...files, ...nested(10, 'deep.txt', 'deep\n') }), [], 'Initial\n', 1_700_000_000);
  await applyWrite(testDb(), source.poolId, await prepareWrite(b.take()), [
    { projectId: source.projectId, name: 'refs/heads/main', old: null, new: head },
    { projectId: source.projectId, name: 'refs/tags/v1', old: null, new: head },
  ]);
});

describe('forking', () => {
  it('joins the source pool: one repository row and a copy of the refs, no object copied', async () => {
    const before = { repositories: await count('repositories', 'true'), refs: await count('git_refs', 'true'), pool: await poolRows(source.poolId) };
    const forked = await fork(source.projectId, source.token);
    expect(await count('repositories', 'true')).toBe(before.repositories + 1);
    expect(await count('git_refs', 'true')).toBe(before.refs + 2);
    expect(await poolRows(source.poolId)).toEqual(before.pool);
    expect((await findRepository(testDb().db, forked.id))?.poolId).toBe(source.poolId);

    const file = await readPath(testDb().db, { projectId: forked.id, rev: 'v1', path: DEEP });
    expect(new TextDecoder().decode((file as { data: Uint8Array }).data)).toBe('deep\n');
  });

  it("writes a fork's commits to the shared pool without moving the source's refs", async () => {
    const forked = await fork(source.projectId, source.token);
    const b = new ObjectBuilder();
    const next = await b.commit(await b.tree({ 'only-in-fork.txt': 'fork\n' }), [head], 'Fork work\n', 1_700_000_100);
    await applyWrite(testDb(), source.poolId, await prepareWrite(b.take()), [{ projectId: forked.id, name: 'refs/heads/main', old: head, new: next }]);
    expect(await findRef(testDb().db, forked.id, 'refs/heads/main')).toBe(next);
    expect(await findRef(testDb().db, source.projectId, 'refs/heads/main')).toBe(head);
    expect((await logPage(testDb().db, { projectId: forked.id, rev: 'main', limit: 10, offset: 0 }))?.commits.map((x) => x.oid)).toEqual([next, head]);
    expect((await logPage(testDb().db, { projectId: source.projectId, rev: 'main', limit: 10, offset: 0 }))?.commits.map((x) => x.oid)).toEqual([head]);
  });
});

describe('deleting', () => {
  it('keeps the objects a fork reaches when the source goes, and drops the pool with its last repository', async () => {
    const owner = await projectWithRepository();
    const b = new ObjectBuilder();
    const commit = await b.commit(await b.tree(nested(10, 'deep.txt', 'kept\n')), [], 'Initial\n', 1_700_000_000);
    await applyWrite(testDb(), owner.poolId, await prepareWrite(b.take()), [{ projectId: owner.projectId, name: 'refs/heads/main', old: null, new: commit }]);
    const forked = await fork(owner.projectId, owner.token);
    const rowsBefore = await poolRows(owner.poolId);

    // The source's rows go (as the housekeeping purge deletes a project): its repository and refs cascade.
    await testDb().db.execute(sql`DELETE FROM projects WHERE id = ${owner.projectId}`);
    expect(await count('repositories', `project_id = ${owner.projectId}`)).toBe(0);
    expect(await count('git_refs', `project_id = ${owner.projectId}`)).toBe(0);
    expect(await deleteUnusedPools(testDb().db, [owner.poolId])).toEqual([]);
    expect(await poolRows(owner.poolId)).toEqual(rowsBefore);
    const file = await readPath(testDb().db, { projectId: forked.id, rev: 'main', path: DEEP });
    expect(new TextDecoder().decode((file as { data: Uint8Array }).data)).toBe('kept\n');

    await testDb().db.execute(sql`DELETE FROM projects WHERE id = ${forked.id}`);
    expect(await deleteUnusedPools(testDb().db, [owner.poolId])).toEqual([owner.poolId]);
    expect(await poolRows(owner.poolId)).toEqual({ objects: 0, commits: 0, entries: 0, paths: 0 });
    expect(await count('object_pools', `id = ${owner.poolId}`)).toBe(0);
  });

  it('refuses to delete a pool a repository still uses, even when named', async () => {
    const other = await projectWithRepository();
    expect(await deleteUnusedPools(testDb().db, [other.poolId])).toEqual([]);
    expect(await count('object_pools', `id = ${other.poolId}`)).toBe(1);
  });

  it('housekeeping: purging a deleted project keeps the pool its fork uses; purging the fork too deletes the pool', async () => {
    const owner = await projectWithRepository();
    const b = new ObjectBuilder();
    const commit = await b.commit(await b.tree({ 'a.txt': 'a\n' }), [], 'One\n', 1_700_000_000);
    await applyWrite(testDb(), owner.poolId, await prepareWrite(b.take()), [{ projectId: owner.projectId, name: 'refs/heads/main', old: null, new: commit }]);
    const forked = await fork(owner.projectId, owner.token);
    const before = await poolRows(owner.poolId);
    expect((await api.delete(`/projects/${owner.projectId}`, { token: owner.token })).status).toBe(202);
    // The purge (project_destroy or the periodic sweep), then cronjob:object_pool_cleanup, as the scheduled run orders them.
    const housekeeping = async () => ({ ...(await purgeDeleted({ ctx: testDb() })), unusedPools: await deleteUnusedObjectPools({ ctx: testDb() }) });
    const first = await housekeeping();
    expect(first.purgedProjects).toBeGreaterThanOrEqual(1);
    expect(await count('projects', `id = ${owner.projectId}`)).toBe(0);
    expect(await poolRows(owner.poolId)).toEqual(before);
    expect((await api.delete(`/projects/${forked.id}`, { token: owner.token })).status).toBe(202);
    const second = await housekeeping();
    expect(second.unusedPools).toBeGreaterThanOrEqual(1);
    expect(await count('object_pools', `id = ${owner.poolId}`)).toBe(0);
    expect(await poolRows(owner.poolId)).toEqual({ objects: 0, commits: 0, entries: 0, paths: 0 });
  });
});
