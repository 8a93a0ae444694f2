// The git store over Postgres: a small repository (nested directories 10 deep, an edit, a rename, an annotated tag)
// written commit by commit through the store, then read back, each read ONE statement: a file at depth 10, tree
// pages in GitLab's order, `git log` pages with and without a path.
import { beforeAll, describe, expect, it } from 'vitest';
import { findRef } from '../../db/queries/repositories/refs.ts';
import { listRefCommits, logPage, readObjects, readPath, resolveRevision, treePage } from '../../db/queries/repositories/reads.ts';
import { encodeTag } from '../../functions/repositories/git/tag.ts';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import { applyWrite, prepareWrite } from '../../functions/repositories/store/store.ts';
import { testDb } from '../helpers/app.ts';
import { count, measured, nested, ObjectBuilder, projectWithRepository } from './store-support.ts';

const DEEP = 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt';
const text = (bytes: Uint8Array | null | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const decodePath = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

let projectId: number;
let poolId: number;
const c: string[] = [];

beforeAll(async () => {
  ({ projectId, poolId } = await projectWithRepository());
  const b = new ObjectBuilder();
  const commit = async (spec: Parameters<ObjectBuilder['tree']>[0], message: string, time: number) => {
    const parent = c.at(-1);
    const oid = await b.commit(await b.tree(spec), parent ? [parent] : [], message, time);
    const write = await prepareWrite(b.take());
    await applyWrite(testDb(), poolId, write, [{ projectId, name: 'refs/heads/main', old: parent ?? null, new: oid }]);
    c.push(oid);
  };
  const base = { 'README.md': '# hello\n', src: { 'main.ts': 'main()\n' }, ...nested(10, 'deep.txt', 'deep v1\n') };
  await commit({ ...base, docs: { 'guide.md': 'guide\n' } }, 'Initial commit\n\nwith a body\n', 1_000_000);
  await commit({ ...base, ...nested(10, 'deep.txt', 'deep v2\n'), docs: { 'guide.md': 'guide\n' } }, 'Edit the deep file\n', 1_000_100);
  await commit({ ...base, ...nested(10, 'deep.txt', 'deep v2\n'), docs: { 'manual.md': 'guide\n' } }, 'Rename the guide\n', 1_000_200);
  await commit(
    { ...base, ...nested(10, 'deep.txt', 'deep v2\n'), docs: { 'manual.md': 'guide\n' }, src: { 'main.ts': 'main()\n', 'util.ts': 'util()\n' } },
    'Add util\n',
    1_000_300,
  );
  // An annotated tag on the first commit.
  const tag = encodeTag({
    object: c[0]!,
    type: 'commit',
    tag: 'v1.0',
    tagger: { name: 'T', email: 't@example.com', time: 1_000_400, tz: '+0000' },
    headers: [],
    message: new TextEncoder().encode('Release\n'),
  });
  await applyWrite(testDb(), poolId, await prepareWrite([{ type: 'tag', body: tag }]), [
    { projectId, name: 'refs/tags/v1.0', old: null, new: await hashObject('tag', tag) },
  ]);
});

describe('writing', () => {
  it('moves the branch and derives the commit graph and the changed paths', async () => {
    expect(await findRef(testDb().db, projectId, 'refs/heads/main')).toBe(c[3]);
    const head = await resolveRevision(testDb().db, projectId, 'main');
    expect(head).toMatchObject({
      oid: c[3],
      parentOids: [c[2]],
      generation: 4,
      title: 'Add util',
      author: { name: 'Ada Lovelace', time: 1_000_300, tz: '+0100' },
    });
    expect((await resolveRevision(testDb().db, projectId, c[0]!))?.message).toBe('Initial commit\n\nwith a body\n');
    // The root commit lists every file; later ones what changed against their first parent.
    expect(await count('git_commit_paths', `pool_id = ${poolId} AND commit_oid = decode('${c[0]}', 'hex')`)).toBe(4);
    expect(await count('git_commit_paths', `pool_id = ${poolId} AND commit_oid = decode('${c[2]}', 'hex')`)).toBe(2);
  });

  it('writes an object once however often it is written (content-addressed)', async () => {
    const before = await count('git_objects', `pool_id = ${poolId}`);
    const b = new ObjectBuilder();
    await b.tree({ 'README.md': '# hello\n' });
    await applyWrite(testDb(), poolId, await prepareWrite([...b.objects, ...b.objects]), []);
    expect(await count('git_objects', `pool_id = ${poolId}`)).toBe(before + 1); // the new tree; the blob was there
  });
});

describe('revisions', () => {
  it('resolves branches, tags (peeled), full refs, HEAD-less names, full and abbreviated ids', async () => {
    const resolve = async (rev: string) => (await resolveRevision(testDb().db, projectId, rev))?.oid;
    expect(await resolve('main')).toBe(c[3]);
    expect(await resolve('refs/heads/main')).toBe(c[3]);
    expect(await resolve('heads/main')).toBe(c[3]);
    expect(await resolve('v1.0')).toBe(c[0]);
    expect(await resolve('refs/tags/v1.0')).toBe(c[0]);
    expect(await resolve(c[1]!)).toBe(c[1]);
    expect(await resolve(c[1]!.slice(0, 8))).toBe(c[1]);
    expect(await resolve('nope')).toBeUndefined();
    expect(await resolve('0'.repeat(40))).toBeUndefined();
    expect(await resolve('')).toBeUndefined();
  });
});

describe('refs', () => {
  it('lists branches and tags with their commits (tags peeled) in one statement', async () => {
    const { result, queries } = await measured((d) => listRefCommits(d.db, projectId, 'refs/'));
    expect(queries).toBeLessThanOrEqual(1);
    expect(result.map((r) => [r.name, r.commit?.oid, r.commit?.title])).toEqual([
      ['refs/heads/main', c[3], 'Add util'],
      ['refs/tags/v1.0', c[0], 'Initial commit'],
    ]);
    expect(result[1]!.oid).not.toBe(c[0]); // the tag object itself
  });
});

describe('reading a path', () => {
  it('reads the file at depth 10 in one statement', async () => {
    const { result, queries, roundTrips } = await measured((d) => readPath(d.db, { projectId, rev: 'main', path: DEEP }));
    expect(queries).toBeLessThanOrEqual(1);
    expect(roundTrips).toBeLessThanOrEqual(1);
    expect(result).toMatchObject({ commitOid: c[3], mode: '100644', type: 3, size: 8 });
    expect(text((result as { data: Uint8Array }).data)).toBe('deep v2\n');
  });

  it('reads it at an older commit, a tag, and as a tree', async () => {
    const old = await readPath(testDb().db, { projectId, rev: 'v1.0', path: DEEP });
    expect(text((old as { data: Uint8Array }).data)).toBe('deep v1\n');
    const dir = await readPath(testDb().db, { projectId, rev: c[0]!, path: '/d1/d2/', withData: false });
    expect(dir).toMatchObject({ mode: '40000', type: 2, data: null });
  });

  it('reads objects by id, byte for byte', async () => {
    const file = (await readPath(testDb().db, { projectId, rev: 'main', path: 'README.md' })) as { oid: string };
    const found = await readObjects(testDb().db, projectId, [file.oid, c[0]!, '0'.repeat(40)]);
    expect(found).toHaveLength(2);
    const [blob, commit] = [found.find((o) => o.oid === file.oid), found.find((o) => o.oid === c[0])];
    expect(text(blob?.data)).toBe('# hello\n');
    expect(await hashObject('commit', commit!.data)).toBe(c[0]);
    expect(commit).toMatchObject({ type: 1, size: commit!.data.length });
  });

  it('tells a missing path from a missing revision', async () => {
    expect(await readPath(testDb().db, { projectId, rev: 'main', path: 'd1/nothing/here' })).toEqual({ commitOid: c[3] });
    expect(await readPath(testDb().db, { projectId, rev: 'main', path: 'README.md/below-a-file' })).toEqual({ commitOid: c[3] });
    expect(await readPath(testDb().db, { projectId, rev: 'no-such-branch', path: 'README.md' })).toBeUndefined();
  });
});

describe('listing a tree', () => {
  it('lists trees, then blobs, in git order, in one statement', async () => {
    const { result, queries } = await measured((d) => treePage(d.db, { projectId, rev: 'main', path: '', recursive: false, limit: 100, offset: 0 }));
    expect(queries).toBeLessThanOrEqual(1);
    const page = result as Awaited<ReturnType<typeof treePage>> & { entries: unknown[] };
    expect(page.total).toBe(4);
    expect(page.entries.map((e: any) => `${e.type} ${decodePath(e.path)}`)).toEqual(['tree d1', 'tree docs', 'tree src', 'blob README.md']);
  });

  it('lists a subdirectory and pages a recursive listing', async () => {
    const src = await treePage(testDb().db, { projectId, rev: 'main', path: 'src', recursive: false, limit: 100, offset: 0 });
    expect(src?.entries?.map((e) => decodePath(e.path))).toEqual(['src/main.ts', 'src/util.ts']);
    const all = await treePage(testDb().db, { projectId, rev: 'main', path: '', recursive: true, limit: 100, offset: 0 });
    expect(all?.entries?.map((e) => decodePath(e.path))).toEqual([
      'd1',
      'd1/d2',
      'd1/d2/d3',
      'd1/d2/d3/d4',
      'd1/d2/d3/d4/d5',
      'd1/d2/d3/d4/d5/d6',
      'd1/d2/d3/d4/d5/d6/d7',
      'd1/d2/d3/d4/d5/d6/d7/d8',
      'd1/d2/d3/d4/d5/d6/d7/d8/d9',
      'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10',
      'docs',
      'src',
      'README.md',
      DEEP,
      'docs/manual.md',
      'src/main.ts',
      'src/util.ts',
    ]);
    const page2 = await treePage(testDb().db, { projectId, rev: 'main', path: '', recursive: true, limit: 5, offset: 10 });
    expect(page2).toMatchObject({ total: 17 });
    expect(page2?.entries?.map((e) => decodePath(e.path))).toEqual(['docs', 'src', 'README.md', DEEP, 'docs/manual.md']);
    const past = await treePage(testDb().db, { projectId, rev: 'main', path: '', recursive: true, limit: 5, offset: 100 });
    expect(past).toMatchObject({ total: 17, entries: [] });
  });

  it('tells a path that is not a tree', async () => {
    expect(await treePage(testDb().db, { projectId, rev: 'main', path: 'README.md', recursive: false, limit: 20, offset: 0 })).toEqual({ commitOid: c[3] });
    expect(await treePage(testDb().db, { projectId, rev: 'nope', path: '', recursive: false, limit: 20, offset: 0 })).toBeUndefined();
  });
});

describe('git log', () => {
  const log = async (a: { rev?: string; path?: string; limit?: number; offset?: number }) => {
    const { result, queries } = await measured((d) =>
      logPage(d.db, { projectId, rev: a.rev ?? 'main', path: a.path, limit: a.limit ?? 100, offset: a.offset ?? 0 }),
    );
    expect(queries).toBeLessThanOrEqual(1);
    return result?.commits.map((x) => x.oid);
  };

  it('pages the history newest first in one statement', async () => {
    expect(await log({})).toEqual([c[3], c[2], c[1], c[0]]);
    expect(await log({ limit: 2, offset: 1 })).toEqual([c[2], c[1]]);
    expect(await log({ rev: c[1]! })).toEqual([c[1], c[0]]);
    expect(await log({ rev: 'nope' })).toBeUndefined();
  });

  it('filters by a file or a directory, in one statement', async () => {
    expect(await log({ path: DEEP })).toEqual([c[1], c[0]]);
    expect(await log({ path: 'd1/d2' })).toEqual([c[1], c[0]]);
    expect(await log({ path: 'docs/guide.md' })).toEqual([c[2], c[0]]);
    expect(await log({ path: 'docs/manual.md' })).toEqual([c[2]]);
    expect(await log({ path: 'docs' })).toEqual([c[2], c[0]]);
    expect(await log({ path: 'src/' })).toEqual([c[3], c[0]]);
    expect(await log({ path: 'sr' })).toEqual([]); // a prefix of a name is not the directory
    expect(await log({ path: 'README.md' })).toEqual([c[0]]);
  });
});
