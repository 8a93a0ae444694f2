// What the derived rows say about less common histories: a file that becomes a directory (and back), a mode change,
// a submodule, a merge (changed paths against the first parent, generations through both parents, in one write and
// on top of an earlier one), and file names that are not UTF-8, read back byte for byte.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/queries/lib/raw.ts';
import { logPage, readPath, resolveRevision, treePage } from '../../db/queries/repositories/reads.ts';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import { encodeCommit } from '../../functions/repositories/git/commit.ts';
import { encodeTree } from '../../functions/repositories/git/tree.ts';
import { applyWrite, prepareWrite } from '../../functions/repositories/store/store.ts';
import { testDb } from '../helpers/app.ts';
import { ObjectBuilder, projectWithRepository } from './store-support.ts';

const SUBMODULE_A = 'a'.repeat(40);
const SUBMODULE_B = 'b'.repeat(40);

async function changedPaths(poolId: number, commit: string): Promise<string[]> {
  const found = await rows<{ path: string }>(
    testDb().db,
    sql`SELECT convert_from(path, 'UTF8') AS path FROM git_commit_paths WHERE pool_id = ${poolId} AND commit_oid = decode(${commit}, 'hex') ORDER BY path`,
  );
  return found.map((r) => r.path);
}

describe('changed paths and generations', () => {
  it('follows type changes, modes, submodules and merges', async () => {
    const { projectId, poolId } = await projectWithRepository();
    const b = new ObjectBuilder();
    const script = await b.blob('#!/bin/sh\n');
    const a = await b.commit(
      await b.tree({ a: 'a file\n', x: { y: 'deep\n' }, 'run.sh': { mode: '100644', oid: script }, mod: { mode: '160000', oid: SUBMODULE_A } }),
      [],
      'A\n',
      1_700_000_000,
    );
    const main = await b.commit(
      await b.tree({
        a: { inner: 'now a directory\n' },
        x: 'now a file\n',
        'run.sh': { mode: '100755', oid: script },
        mod: { mode: '160000', oid: SUBMODULE_B },
      }),
      [a],
      'B\n',
      1_700_000_100,
    );
    const side = await b.commit(
      await b.tree({
        a: 'a file\n',
        x: { y: 'deep\n' },
        'run.sh': { mode: '100644', oid: script },
        mod: { mode: '160000', oid: SUBMODULE_A },
        'side.txt': 'side\n',
      }),
      [a],
      'C\n',
      1_700_000_050,
    );
    const merge = await b.commit(
      await b.tree({
        a: { inner: 'now a directory\n' },
        x: 'now a file\n',
        'run.sh': { mode: '100755', oid: script },
        mod: { mode: '160000', oid: SUBMODULE_B },
        'side.txt': 'side\n',
      }),
      [main, side],
      'Merge\n',
      1_700_000_200,
    );
    // Children before parents in the write: the store orders the graph itself.
    const objects = b.take().reverse();
    await applyWrite(testDb(), poolId, await prepareWrite(objects), [{ projectId, name: 'refs/heads/main', old: null, new: merge }]);

    expect(await changedPaths(poolId, a)).toEqual(['a', 'mod', 'run.sh', 'x/y']);
    expect(await changedPaths(poolId, main)).toEqual(['a', 'a/inner', 'mod', 'run.sh', 'x', 'x/y']);
    expect(await changedPaths(poolId, merge)).toEqual(['side.txt']);
    const generation = async (rev: string) => (await resolveRevision(testDb().db, projectId, rev))?.generation;
    expect([await generation(a), await generation(main), await generation(side), await generation(merge)]).toEqual([1, 2, 2, 3]);

    // A later write on top of the merge completes its generation from the stored one.
    const next = await b.commit(await b.tree({ 'only.txt': 'x\n' }), [merge], 'D\n', 1_700_000_300);
    const last = await b.commit(await b.tree({ 'only.txt': 'y\n' }), [next, side], 'E\n', 1_700_000_400);
    await applyWrite(testDb(), poolId, await prepareWrite(b.take()), [{ projectId, name: 'refs/heads/main', old: merge, new: last }]);
    expect([await generation(next), await generation(last)]).toEqual([4, 5]);

    const log = await logPage(testDb().db, { projectId, rev: 'main', limit: 10, offset: 0 });
    expect(log?.commits.map((c) => c.title)).toEqual(['E', 'D', 'Merge', 'B', 'C', 'A']);
    const firstParent = await logPage(testDb().db, { projectId, rev: 'main', firstParent: true, limit: 10, offset: 0 });
    expect(firstParent?.commits.map((c) => c.title)).toEqual(['E', 'D', 'Merge', 'B', 'A']);
    const submodule = await readPath(testDb().db, { projectId, rev: merge, path: 'mod' });
    expect(submodule).toMatchObject({ mode: '160000', oid: SUBMODULE_B, type: null, data: null });
    const root = await treePage(testDb().db, { projectId, rev: merge, path: '', recursive: false, limit: 20, offset: 0 });
    expect(root?.entries?.map((e) => `${e.type} ${new TextDecoder().decode(e.name)}`)).toEqual([
      'tree a',
      'blob run.sh',
      'blob side.txt',
      'blob x',
      'commit mod',
    ]);
  });

  it('keeps file names that are not UTF-8 as bytes', async () => {
    const { projectId, poolId } = await projectWithRepository();
    const b = new ObjectBuilder();
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "café.txt" in Latin-1
    const blob = await b.blob('bonjour\n');
    const dirBody = encodeTree([{ mode: '100644', name: latin1, oid: blob }]);
    b.objects.push({ type: 'tree', body: dirBody });
    const rootBody = encodeTree([{ mode: '40000', name: latin1, oid: await hashObject('tree', dirBody) }]);
    b.objects.push({ type: 'tree', body: rootBody });
    const commit = await b.commit(await hashObject('tree', rootBody), [], 'Latin-1\n', 1_700_000_000);
    await applyWrite(testDb(), poolId, await prepareWrite(b.take()), [{ projectId, name: 'refs/heads/main', old: null, new: commit }]);

    const path = Uint8Array.from([...latin1, 0x2f, ...latin1]);
    const file = await readPath(testDb().db, { projectId, rev: 'main', path });
    expect(new TextDecoder().decode((file as { data: Uint8Array }).data)).toBe('bonjour\n');
    const listing = await treePage(testDb().db, { projectId, rev: 'main', path: '', recursive: true, limit: 20, offset: 0 });
    expect(listing?.entries?.map((e) => [...e.path])).toEqual([[...latin1], [...path]]);
    expect((await logPage(testDb().db, { projectId, rev: 'main', path, limit: 5, offset: 0 }))?.commits.map((c) => c.oid)).toEqual([commit]);
  });

  it('stores names and messages that are not UTF-8 (or hold NUL) as displayable text, the object byte for byte', async () => {
    const { projectId, poolId } = await projectWithRepository();
    const b = new ObjectBuilder();
    const tree = await b.tree({ 'a.txt': 'a\n' });
    // "José" written in Latin-1 (the codec keeps the byte 0xE9 as the escape U+DCE9), a message with NUL and 0xFF.
    const who = { name: 'Jos\udce9', email: 'jose@example.com', time: 1_700_000_000, tz: '-0300' };
    const body = encodeCommit({ tree, parents: [], author: who, committer: who, headers: [], message: Uint8Array.from([0x48, 0x69, 0x00, 0xff, 0x0a]) });
    const oid = await hashObject('commit', body);
    await applyWrite(testDb(), poolId, await prepareWrite([...b.take(), { type: 'commit', body }]), [
      { projectId, name: 'refs/heads/main', old: null, new: oid },
    ]);
    expect(await resolveRevision(testDb().db, projectId, 'main')).toMatchObject({ oid, author: { name: 'José', tz: '-0300' }, message: 'Hi\ufffd\n' });
  });
});
