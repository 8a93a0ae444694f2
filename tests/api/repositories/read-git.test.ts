// The read API against the system `git`: a history git builds (a branch merged back, a rename, an executable, a
// nested directory) is loaded into the store, and what the API answers equals what git prints for it.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepository, findRepository, setDefaultBranchQuery } from '../../../db/queries/repositories/refs.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { git, hasGit, readGitObjects, scratchRepo } from '../../helpers/git-dir.ts';

describe.runIf(hasGit())('repository reads agree with git', () => {
  let work: string;
  let token: string;
  let id: number;
  const scratch = scratchRepo('+0200');
  const run = scratch.run;

  beforeAll(async () => {
    work = await scratch.init('read-git-');
    await mkdir(join(work, 'src/lib'), { recursive: true });
    await writeFile(join(work, 'README.md'), '# Project\n');
    await writeFile(join(work, 'src/lib/util.ts'), 'export {};\n');
    await run('add', '-A');
    await run('commit', '-q', '-m', 'Initial');
    await run('checkout', '-q', '-b', 'topic');
    await writeFile(join(work, 'run.sh'), '#!/bin/sh\n');
    await chmod(join(work, 'run.sh'), 0o755);
    await run('add', '-A');
    await run('commit', '-q', '-m', 'Add a script');
    await run('checkout', '-q', 'main');
    await run('mv', 'src/lib/util.ts', 'src/lib/helpers.ts');
    await run('commit', '-q', '-m', 'Rename util');
    await run('merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic');
    await writeFile(join(work, 'README.md'), '# Project\n\nMore.\n');
    await run('commit', '-q', '-am', 'Edit README');

    ({ token } = await createUser());
    id = (await createProject(token)).id;
    // Projects may come with an (empty) repository already.
    const poolId = (await findRepository(testDb().db, id))?.poolId ?? (await createRepository(testDb().db, id));
    await setDefaultBranchQuery(testDb().db, id, 'main');
    const write = await prepareWrite(await readGitObjects(work));
    const refs = [];
    for (const name of ['main', 'topic']) refs.push({ projectId: id, name: `refs/heads/${name}`, old: null, new: await git(work, 'rev-parse', name) });
    await applyWrite(testDb(), poolId, write, refs);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const get = (path: string, query: Record<string, string | boolean> = {}) => api.get(`/projects/${id}/repository${path}`, { token, query });

  it('commits: git log order, parents, first parent, path', async () => {
    const ids = async (query: Record<string, string | boolean>) => (await get('/commits', query)).body.map((c: { id: string }) => c.id).join('\n');
    expect(await ids({})).toBe(await git(work, 'log', '--format=%H', 'main'));
    expect(await ids({ first_parent: true })).toBe(await git(work, 'log', '--first-parent', '--format=%H', 'main'));
    expect(await ids({ ref_name: 'topic' })).toBe(await git(work, 'log', '--format=%H', 'topic'));
    expect(await ids({ path: 'README.md' })).toBe(await git(work, 'log', '--format=%H', 'main', '--', 'README.md'));
    // Revision expressions (`main~1`) are not resolved by the store: the merge by its id.
    const merge = (await get(`/commits/${await git(work, 'rev-parse', 'main~1')}`)).body;
    expect(merge.parent_ids.join(' ')).toBe(await git(work, 'log', '-1', '--format=%P', 'main~1'));
  });

  it('tree: the entries git ls-tree prints, recursive too', async () => {
    const lsTree = async (...args: string[]) =>
      (await git(work, 'ls-tree', ...args))
        .split('\n')
        .map((line) => {
          const [meta, path] = line.split('\t');
          const [mode, type, oid] = meta!.split(' ');
          return `${mode} ${type} ${oid} ${path}`;
        })
        .sort();
    const ours = (body: { mode: string; type: string; id: string; path: string }[]) => body.map((e) => `${e.mode} ${e.type} ${e.id} ${e.path}`).sort();
    expect(ours((await get('/tree')).body)).toEqual(await lsTree('main'));
    expect(ours((await get('/tree', { recursive: true, per_page: '100' })).body)).toEqual(await lsTree('-r', '-t', 'main'));
    expect(ours((await get('/tree', { path: 'src/lib', ref: 'topic' })).body)).toEqual(await lsTree('topic', 'src/lib/'));
  });

  it('files: content, blob id and last commit as git has them', async () => {
    const file = (await get('/files/src%2Flib%2Fhelpers.ts', { ref: 'main' })).body;
    expect(file.blob_id).toBe(await git(work, 'rev-parse', 'main:src/lib/helpers.ts'));
    expect(file.last_commit_id).toBe(await git(work, 'log', '-1', '--format=%H', 'main', '--', 'src/lib/helpers.ts'));
    expect(Buffer.from(file.content, 'base64').toString()).toBe(`${await git(work, 'show', 'main:src/lib/helpers.ts')}\n`);
    const script = (await get('/files/run.sh/raw', { ref: 'topic' })).text;
    expect(script).toBe(`${await git(work, 'show', 'topic:run.sh')}\n`);
  });

  it('revision expressions (~n, ^n, ^0, ^{commit}) name the commit git rev-parse names; a bad suffix names nothing', async () => {
    for (const rev of ['main~1', 'main^', 'main~1^2', 'main^1~1', 'HEAD~2', 'main^0', 'main^{commit}', 'main~', 'topic~1']) {
      const res = await get(`/commits/${encodeURIComponent(rev)}`);
      expect([rev, res.status, res.body.id]).toEqual([rev, 200, await git(work, 'rev-parse', rev)]);
    }
    const tree = (await get('/tree', { ref: 'main~1^2' })).body as { name: string }[];
    expect(tree.map((e) => e.name).sort()).toEqual((await git(work, 'ls-tree', '--name-only', 'main~1^2')).split('\n').sort());
    const log = (await get('/commits', { ref_name: 'main~1', per_page: '100' })).body as { id: string }[];
    expect(log.map((c) => c.id).join('\n')).toBe(await git(work, 'log', '--format=%H', 'main~1'));
    for (const rev of ['main~99', 'main^2', 'main^{tree}', 'main~x']) {
      expect([rev, (await get(`/commits/${encodeURIComponent(rev)}`)).status]).toEqual([rev, 404]);
    }
  });

  it('all=true walks every ref (git log --all); order=topo is git --topo-order, also with all, first_parent and path', async () => {
    const ids = async (query: Record<string, string>) =>
      ((await get('/commits', { per_page: '100', ...query })).body as { id: string }[]).map((c) => c.id).join('\n');
    expect(await ids({ all: 'true', ref_name: 'nope' })).toBe(await git(work, 'log', '--all', '--format=%H'));
    const topo = await git(work, 'log', '--topo-order', '--format=%H', 'main');
    expect(topo).not.toBe(await git(work, 'log', '--format=%H', 'main'));
    expect(await ids({ order: 'topo' })).toBe(topo);
    expect(await ids({ order: 'topo', all: 'true' })).toBe(await git(work, 'log', '--all', '--topo-order', '--format=%H'));
    expect(await ids({ order: 'topo', first_parent: 'true' })).toBe(await git(work, 'log', '--first-parent', '--topo-order', '--format=%H', 'main'));
    expect(await ids({ order: 'topo', path: 'README.md' })).toBe(await git(work, 'log', '--topo-order', '--format=%H', 'main', '--', 'README.md'));
    // Pages of the topological order, with GitLab's headers.
    const first = await get('/commits', { order: 'topo', per_page: '2' });
    const second = await get('/commits', { order: 'topo', per_page: '2', page: '2' });
    expect([...first.body, ...second.body].map((c: { id: string }) => c.id)).toEqual(topo.split('\n').slice(0, 4));
    expect(first.headers.get('x-total')).toBe(String(topo.split('\n').length));
    expect(second.headers.get('x-page')).toBe('2');
  });
});
