// Ref updates are compare-and-swap, in the same batch as the objects: of 10 commits racing on one branch from the
// same parent exactly one wins, the others fail with the conflict error and leave nothing behind (no object, no
// derived row, the ref untouched). With TEST_DB=postgres the writers really run at once, each batch on its own
// connection (Neon's HTTP transactions through the local stand-in).
import { describe, expect, it } from 'vitest';
import { findRef } from '../../db/queries/repositories/refs.ts';
import { logPage } from '../../db/queries/repositories/reads.ts';
import { applyWrite, prepareWrite, RefConflictError } from '../../functions/repositories/store/store.ts';
import { testDb } from '../helpers/app.ts';
import { count, countedDatabase, measured, ObjectBuilder, projectWithRepository } from './store-support.ts';

const MAIN = 'refs/heads/main';

async function repositoryWithOneCommit() {
  const repo = await projectWithRepository();
  const b = new ObjectBuilder();
  const base = await b.commit(await b.tree({ 'README.md': 'base\n' }), [], 'Base\n', 1_700_000_000);
  await applyWrite(testDb(), repo.poolId, await prepareWrite(b.take()), [{ projectId: repo.projectId, name: MAIN, old: null, new: base }]);
  return { ...repo, base };
}

/** A commit on `parent` adding a file of its own (so its blob, tree and commit are all new objects). */
async function commitOn(parent: string, i: number, time: number) {
  const b = new ObjectBuilder();
  const tree = await b.tree({ 'README.md': 'base\n', [`writer-${i}.txt`]: `writer ${i} at ${time}\n` });
  const oid = await b.commit(tree, [parent], `Writer ${i}\n`, time);
  return { oid, write: await prepareWrite(b.take()) };
}

const objectExists = (poolId: number, oid: string) => count('git_objects', `pool_id = ${poolId} AND oid = decode('${oid}', 'hex')`);

describe('compare-and-swap', () => {
  it('lets exactly one of 10 parallel commits on one branch win; the others leave nothing', async () => {
    const { projectId, poolId, base } = await repositoryWithOneCommit();
    const writers = await Promise.all(Array.from({ length: 10 }, (_, i) => commitOn(base, i, 1_700_000_100 + i)));
    const before = { objects: await count('git_objects', `pool_id = ${poolId}`), paths: await count('git_commit_paths', `pool_id = ${poolId}`) };
    // Each writer on a Database of its own, as concurrent requests would be.
    const results = await Promise.allSettled(
      writers.map(({ oid, write }) => applyWrite(countedDatabase().database, poolId, write, [{ projectId, name: MAIN, old: base, new: oid }])),
    );
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RefConflictError);

    const winner = writers[won[0]!]!;
    expect(await findRef(testDb().db, projectId, MAIN)).toBe(winner.oid);
    // The winner's commit, tree and blob are the only new objects; a loser's are nowhere, derived rows included.
    expect(await count('git_objects', `pool_id = ${poolId}`)).toBe(before.objects + 3);
    expect(await count('git_commit_paths', `pool_id = ${poolId}`)).toBe(before.paths + 1);
    for (const [i, w] of writers.entries()) {
      if (i === won[0]) continue;
      expect(await objectExists(poolId, w.oid)).toBe(0);
      expect(await count('git_commits', `pool_id = ${poolId} AND oid = decode('${w.oid}', 'hex')`)).toBe(0);
      expect(await count('git_commit_paths', `pool_id = ${poolId} AND commit_oid = decode('${w.oid}', 'hex')`)).toBe(0);
    }
  });

  it('keeps the history linear when racing writers retry on the new tip: exactly the winners, one each', async () => {
    const { projectId, poolId, base } = await repositoryWithOneCommit();
    const landed: string[] = [];
    // One clock for all writers, read after the tip: a commit is always dated after its parent, as in real life.
    let clock = 1_700_000_100;
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const database = countedDatabase().database;
        for (let attempt = 0; ; attempt++) {
          const tip = (await findRef(database.db, projectId, MAIN))!;
          const { oid, write } = await commitOn(tip, i, clock++);
          try {
            await applyWrite(database, poolId, write, [{ projectId, name: MAIN, old: tip, new: oid }]);
            landed.push(oid);
            return;
          } catch (error) {
            if (!(error instanceof RefConflictError) || attempt > 50) throw error;
          }
        }
      }),
    );
    const history = (await logPage(testDb().db, { projectId, rev: 'main', limit: 100, offset: 0 }))!.commits;
    expect(history).toHaveLength(11);
    expect(new Set(history.slice(0, 10).map((x) => x.oid))).toEqual(new Set(landed));
    // Linear: each commit's only parent is the next one down, generations counting up from the base.
    history.forEach((commit, i) => {
      expect(commit.parentOids).toEqual(i < 10 ? [history[i + 1]!.oid] : []);
      expect(commit.generation).toBe(11 - i);
    });
    expect(new Set(history.map((x) => x.title))).toEqual(new Set(['Base', ...Array.from({ length: 10 }, (_, i) => `Writer ${i}`)]));
  });

  it('fails a creation over an existing ref and a deletion of a moved ref, as one round trip each', async () => {
    const { projectId, poolId, base } = await repositoryWithOneCommit();
    const next = await commitOn(base, 1, 1_700_000_200);
    await expect(applyWrite(testDb(), poolId, next.write, [{ projectId, name: MAIN, old: null, new: next.oid }])).rejects.toBeInstanceOf(RefConflictError);
    expect(await objectExists(poolId, next.oid)).toBe(0);
    await expect(applyWrite(testDb(), poolId, next.write, [{ projectId, name: MAIN, old: next.oid, new: null }])).rejects.toBeInstanceOf(RefConflictError);
    expect(await findRef(testDb().db, projectId, MAIN)).toBe(base);

    const { queries, roundTrips } = await measured((d) => applyWrite(d, poolId, next.write, [{ projectId, name: MAIN, old: base, new: next.oid }]));
    expect(roundTrips).toBeLessThanOrEqual(1);
    expect(queries).toBeLessThanOrEqual(5); // objects, tree entries, commits, changed paths, the ref
    await applyWrite(testDb(), poolId, { oids: [], objects: [], treeEntries: [], commits: [] }, [{ projectId, name: MAIN, old: next.oid, new: null }]);
    expect(await findRef(testDb().db, projectId, MAIN)).toBeUndefined();
  });
});
