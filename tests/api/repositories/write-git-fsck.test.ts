// What the write verbs store is git's own: a repository built through the API (README init, commits with every
// action kind, a branch, a fork's commit) is written out as a plain git directory, and the system `git` finds it
// clean (`git fsck --strict`), with the same history as GET /repository/commits and the same tree as the API's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { git, hasGit, writeLooseObjects, writeRef, type GitObject } from '../../helpers/git-dir.ts';

const TYPES = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' } as const;
const hexOf = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v).replace(/^\\x/, ''));
const bytesOf = (v: unknown) => (v instanceof Uint8Array ? v : new Uint8Array(Buffer.from(String(v).replace(/^\\x/, ''), 'hex')));

/** The project's pool and refs, as a bare git directory. */
async function exportRepository(projectId: number): Promise<string> {
  const db = testDb().db;
  const objects = (await db.execute(
    sql`SELECT o.oid, o.type, o.data FROM git_objects o JOIN repositories r ON r.pool_id = o.pool_id WHERE r.project_id = ${projectId}`,
  )) as unknown as {
    rows: { oid: unknown; type: number; data: unknown }[];
  };
  const refs = (await db.execute(sql`SELECT name, encode(oid, 'hex') AS oid FROM git_refs WHERE project_id = ${projectId}`)) as unknown as {
    rows: { name: string; oid: string }[];
  };
  const dir = await mkdtemp(join(tmpdir(), 'export-'));
  await git(dir, 'init', '--bare', '--quiet');
  const list: GitObject[] = objects.rows.map((r) => ({ oid: hexOf(r.oid), type: TYPES[Number(r.type) as 1 | 2 | 3 | 4], body: bytesOf(r.data) }));
  await writeLooseObjects(dir, list);
  for (const r of refs.rows) await writeRef(dir, r.name, r.oid);
  await writeFile(join(dir, 'HEAD'), 'ref: refs/heads/master\n');
  return dir;
}

describe.skipIf(!hasGit())('the written repository, read by git', () => {
  it('git fsck --strict is clean; git log and ls-tree equal the API', async () => {
    const { token } = await createUser();
    const created = await api.post('/projects', { token, body: { name: `fsck-${Date.now()}`, description: 'Exported', initialize_with_readme: true } });
    const id = (created.body as { id: number }).id;
    const post = async (body: Record<string, unknown>) => {
      const res = await api.post(`/projects/${id}/repository/commits`, { token, body });
      expect(res.status, res.text).toBe(201);
    };
    await post({
      branch: 'master',
      commit_message: 'Tree of files',
      author_name: 'Ünïcode Äuthor',
      author_email: 'a@example.com',
      actions: [
        { action: 'create', file_path: 'src/a.b', content: 'a.b' },
        { action: 'create', file_path: 'src/a/x', content: 'x' },
        { action: 'create', file_path: 'src/a0', content: 'a0' },
        { action: 'create', file_path: 'bin/tool', content: 'AAEC/w==', encoding: 'base64' },
      ],
    });
    await post({
      branch: 'master',
      commit_message: 'Change it',
      actions: [
        { action: 'chmod', file_path: 'bin/tool', execute_filemode: true },
        { action: 'move', file_path: 'src/moved.txt', previous_path: 'src/a0' },
        { action: 'delete', file_path: 'src/a/x' },
        { action: 'update', file_path: 'README.md', content: 'new readme\n' },
      ],
    });
    await post({ branch: 'topic', start_branch: 'master', commit_message: 'On topic', actions: [{ action: 'create', file_path: 't', content: '' }] });

    const dir = await exportRepository(id);
    try {
      await git(dir, 'fsck', '--strict', '--no-dangling');
      for (const ref of ['master', 'topic']) {
        const log = (await git(dir, 'log', '--format=%H', ref)).split('\n');
        const listed = (await api.get(`/projects/${id}/repository/commits`, { token, query: { ref_name: ref, per_page: 100 } })).body as { id: string }[];
        expect(log).toEqual(listed.map((c) => c.id));
      }
      const lsTree = (await git(dir, 'ls-tree', '-r', 'master')).split('\n').map((l) => {
        const [meta, path] = l.split('\t');
        const [mode, , oid] = meta!.split(' ');
        return `${mode} ${oid} ${path}`;
      });
      const tree = (await api.get(`/projects/${id}/repository/tree`, { token, query: { recursive: true, per_page: 100 } })).body as {
        id: string;
        type: string;
        path: string;
        mode: string;
      }[];
      expect(lsTree.sort()).toEqual(
        tree
          .filter((e) => e.type === 'blob')
          .map((e) => `${e.mode} ${e.id} ${e.path}`)
          .sort(),
      );
      expect(lsTree.some((l) => l.startsWith('100755') && l.endsWith('bin/tool'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
