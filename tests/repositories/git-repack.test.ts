// Repacking (functions/repositories/transport/repack.ts) seen from the real `git`: after a push brings GIT_GC_AUTO
// objects the project's pack is built with deltas, and a clone streams it (the clone's pack has deltas, which the
// planned path never writes), plus what is newer (commits through the API, a revert to content the pack holds, sent
// once), under `git fsck --strict` and with exactly the objects of the source; a pack whose tips the fetch does not
// want (a branch deleted since) is not used.
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { gitPacks, storedFiles } from '../../db/schema/index.ts';
import { deleteOrphanedStoredFiles, deleteReplacedGitPacks } from '../../functions/housekeeping/service.ts';
import { writeStoredFile } from '../../functions/lib/stored-files.ts';
import { api, serveTestApp, testDb } from '../helpers/app.ts';
import { git, hasGit, runGit } from '../helpers/git-dir.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';

type Server = Awaited<ReturnType<typeof serveTestApp>>;

/** A file of 60 numbered lines, line `changed` saying `rev`: each revision a small edit of the last. */
const text = (name: string, changed: number, rev: number) =>
  Array.from({ length: 60 }, (_, i) => `${name} line ${i}${i === changed ? ` revision ${rev}` : ''} lorem ipsum dolor sit amet`).join('\n') + '\n';

/** The clone's objects: how many its pack holds, how many are deltas, and every reachable id. */
async function inspect(dir: string) {
  const packs = join(dir, '.git', 'objects', 'pack');
  const verify = await git(dir, 'verify-pack', '-v', ...(await readdir(packs)).filter((f) => f.endsWith('.idx')).map((f) => join(packs, f)));
  const entries = verify.split('\n').filter((l) => /^[0-9a-f]{40} /.test(l));
  const reachable = (await git(dir, 'rev-list', '--all', '--objects')).split('\n').map((l) => l.slice(0, 40));
  return { packed: entries.length, deltas: entries.filter((l) => l.split(/\s+/).length > 5).length, reachable: [...new Set(reachable)].sort() };
}

describe.skipIf(!hasGit())('git over HTTP: repacked clones', () => {
  let server: Server;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let work: string;
  let clones = 0;
  const url = (path: string) => `${server.url.replace('://', `://x:${owner.token}@`)}/${path}.git`;
  const clone = async (path: string, args: string[] = []) => {
    const dir = join(work, `clone-${clones++}`);
    await runGit(work, ['clone', '-q', ...args, url(path), dir]);
    const fsck = await runGit(dir, ['fsck', '--strict', '--no-progress']);
    return { dir, fsck: fsck.stdout.toString() + fsck.stderr };
  };

  beforeAll(async () => {
    // Every push repacks (the default waits for 1,000 new objects); commits through `api` keep the default.
    server = await serveTestApp({ env: { GIT_GC_AUTO: '1' } });
    owner = await createUser();
    work = await mkdtemp(join(tmpdir(), 'git-repack-'));
  });
  afterAll(() => server.close());

  // Twelve commits, two pushes and four clones with the real git: 11 s alone on a 2-core machine, and over the default
  // 30 s under the full PostgreSQL run's load there (2026-11-29). A time bound against hangs, not a measurement.
  it('a push is repacked; clones stream the pack with deltas, then what is newer, each object once', { timeout: 90_000 }, async () => {
    const project = await createProject(owner.token);
    const source = join(work, 'source');
    await runGit(work, ['init', '-q', '-b', 'master', source]);
    await mkdir(join(source, 'docs', 'deep'), { recursive: true });
    // A directory of 40 files: its tree (about 1.5 KB) changes by one entry per revision, which a delta says in a few bytes.
    for (let i = 0; i < 40; i++) await writeFile(join(source, 'docs', 'deep', `page-${i}.txt`), `page ${i}\n`);
    for (let rev = 0; rev < 12; rev++) {
      await writeFile(join(source, 'docs', 'deep', 'guide.txt'), text('guide', rev % 60, rev));
      await writeFile(join(source, 'README.md'), text('readme', (rev * 7) % 60, rev));
      await runGit(source, ['add', '-A']);
      await runGit(source, ['commit', '-q', '-m', `revision ${rev}`]);
      if (rev === 5) await runGit(source, ['tag', '-a', '-m', 'first half', 'v0.5']);
      // A commit with its parent's tree: two commits, one root tree, written once.
      if (rev === 7) await runGit(source, ['commit', '-q', '--allow-empty', '-m', 'nothing changed']);
      if (rev === 8) await runGit(source, ['branch', 'stable']);
    }
    await runGit(source, ['push', '-q', url(project.path_with_namespace), '--all']);
    await runGit(source, ['push', '-q', url(project.path_with_namespace), '--tags']);
    const sourceObjects = [...new Set((await git(source, 'rev-list', '--all', '--objects')).split('\n').map((l) => l.slice(0, 40)))].sort();

    // The repack runs after the push's response: the first clone that has deltas streamed the pack.
    const repacked = await vi.waitFor(
      async () => {
        const c = await clone(project.path_with_namespace);
        const seen = await inspect(c.dir);
        expect(seen.deltas).toBeGreaterThan(0);
        return { ...c, seen };
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(repacked.fsck).toBe('');
    expect(repacked.seen.reachable).toEqual(sourceObjects);
    expect(repacked.seen.packed).toBe(sourceObjects.length);
    expect(await git(repacked.dir, 'rev-parse', 'HEAD', 'origin/stable', 'v0.5^{commit}')).toBe(
      await git(source, 'rev-parse', 'HEAD', 'stable', 'v0.5^{commit}'),
    );
    // A blob-less partial clone streams the pack's twin without blobs; its checkout fetches the blobs it needs.
    const partial = await clone(project.path_with_namespace, ['--filter=blob:none', '--no-checkout']);
    const missing = (await git(partial.dir, 'rev-list', '--objects', '--all', '--missing=print')).split('\n').filter((l) => l.startsWith('?'));
    const sourceBlobs = (await git(source, 'rev-list', '--objects', '--all', '--filter=blob:none', '--filter-print-omitted'))
      .split('\n')
      .filter((l) => l.startsWith('~'));
    expect(missing.length).toBe(sourceBlobs.length);
    expect((await inspect(partial.dir)).deltas).toBeGreaterThan(0);
    await runGit(partial.dir, ['checkout', '-q', 'master']);
    expect(await git(partial.dir, 'show', 'HEAD:docs/deep/guide.txt')).toBe(text('guide', 11, 11).trimEnd());
    // Protocol v0 clients get the same pack (kept as a pack: a v0 clone would unpack fewer than 100 objects).
    const v0 = await clone(project.path_with_namespace, ['-c', 'protocol.version=0', '-c', 'fetch.unpackLimit=1']);
    expect(v0.fsck).toBe('');
    expect((await inspect(v0.dir)).deltas).toBe(repacked.seen.deltas);

    // Newer than the pack, through the API (no repack: the API's instance keeps the default threshold): a new file,
    // then README.md back to its first revision, a blob the pack holds, which a plan from the pack's tips finds again.
    const commit = (message: string, actions: unknown[]) =>
      api.post(`/projects/${project.id}/repository/commits`, { token: owner.token, body: { branch: 'master', commit_message: message, actions } });
    expect((await commit('add notes', [{ action: 'create', file_path: 'docs/notes.txt', content: 'notes\n' }])).status).toBe(201);
    expect((await commit('revert readme', [{ action: 'update', file_path: 'README.md', content: text('readme', 0, 0) }])).status).toBe(201);
    const after = await clone(project.path_with_namespace);
    expect(after.fsck).toBe('');
    const seen = await inspect(after.dir);
    expect(seen.deltas).toBe(repacked.seen.deltas);
    expect(seen.packed).toBe(seen.reachable.length);
    // The two commits, their root trees, the new docs tree and its new blob: README.md's blob is the pack's.
    expect(seen.reachable.length).toBe(sourceObjects.length + 2 + 2 + 1 + 1);
    expect(await git(after.dir, 'show', 'HEAD:README.md')).toBe(text('readme', 0, 0).trimEnd());
  });

  it('a pack whose tips the clone does not all want is not used: a deleted branch leaves nothing dangling', async () => {
    const project = await createProject(owner.token);
    const source = join(work, 'source-2');
    await runGit(work, ['init', '-q', '-b', 'master', source]);
    for (let rev = 0; rev < 6; rev++) {
      await writeFile(join(source, 'notes.txt'), text('notes', rev, rev));
      await runGit(source, ['add', '-A']);
      await runGit(source, ['commit', '-q', '-m', `revision ${rev}`]);
    }
    await runGit(source, ['checkout', '-q', '-b', 'topic']);
    await writeFile(join(source, 'topic.txt'), 'topic\n');
    await runGit(source, ['add', '-A']);
    await runGit(source, ['commit', '-q', '-m', 'topic']);
    await runGit(source, ['push', '-q', url(project.path_with_namespace), 'master', 'topic']);
    await vi.waitFor(async () => expect((await inspect((await clone(project.path_with_namespace)).dir)).deltas).toBeGreaterThan(0), {
      timeout: 15_000,
      interval: 100,
    });

    expect((await api.delete(`/projects/${project.id}/repository/branches/topic`, { token: owner.token })).status).toBe(204);
    const c = await clone(project.path_with_namespace);
    expect(c.fsck).toBe('');
    const seen = await inspect(c.dir);
    expect(seen.deltas).toBe(0);
    const master = [...new Set((await git(source, 'rev-list', '--objects', 'master')).split('\n').map((l) => l.slice(0, 40)))].sort();
    expect(seen.reachable).toEqual(master);
    expect(seen.packed).toBe(master.length);
  });

  it('a push after a repack repacks again; the replaced pack and its files go once its grace is over', async () => {
    const project = await createProject(owner.token);
    const source = join(work, 'source-3');
    await runGit(work, ['init', '-q', '-b', 'master', source]);
    const packs = async () =>
      (await testDb().db.select().from(gitPacks).where(eq(gitPacks.projectId, project.id))).map((p) => ({
        replaced: p.replacedAt !== null,
        tips: p.tips,
        files: [p.fileId, p.oidsFileId, p.treesFileId!],
      }));
    const heads: string[] = [];
    for (const rev of [1, 2]) {
      await writeFile(join(source, 'notes.txt'), text('notes', rev, rev));
      await runGit(source, ['add', '-A']);
      await runGit(source, ['commit', '-q', '-m', `revision ${rev}`]);
      heads.push(await git(source, 'rev-parse', 'HEAD'));
      await runGit(source, ['push', '-q', url(project.path_with_namespace), 'master']);
      await vi.waitFor(async () => expect((await packs()).find((p) => !p.replaced)?.tips).toEqual([heads.at(-1)]), { timeout: 15_000, interval: 100 });
    }
    const [old] = (await packs()).filter((p) => p.replaced);
    expect(old).toBeDefined();
    // Within the grace the replaced pack stays (a clone may be streaming it); past it, the cron's sweep deletes it.
    expect(await deleteReplacedGitPacks({ ctx: testDb() })).toBe(0);
    await testDb()
      .db.update(gitPacks)
      .set({ replacedAt: sql`now() - interval '2 hours'` })
      .where(and(eq(gitPacks.projectId, project.id), isNotNull(gitPacks.replacedAt)));
    expect(await deleteReplacedGitPacks({ ctx: testDb() })).toBe(1);
    expect((await packs()).map((p) => p.replaced)).toEqual([false]);
    expect(await testDb().db.select().from(storedFiles).where(inArray(storedFiles.id, old!.files))).toEqual([]);
    // A file no owner took (a repack whose isolate stopped before it made its pack current) goes after a day; the
    // current pack's files, however old, stay.
    const orphan = await writeStoredFile(
      testDb().db,
      (async function* () {
        yield new Uint8Array([1, 2, 3]);
      })(),
      { maxBytes: 10 },
    );
    const [current] = await packs();
    const aged = [orphan.id, ...current!.files];
    await testDb()
      .db.update(storedFiles)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(inArray(storedFiles.id, aged));
    expect(await deleteOrphanedStoredFiles({ ctx: testDb() })).toBeGreaterThanOrEqual(1);
    expect((await testDb().db.select({ id: storedFiles.id }).from(storedFiles).where(inArray(storedFiles.id, aged))).map((f) => f.id).sort()).toEqual(
      current!.files.map(Number).sort(),
    );
    const c = await clone(project.path_with_namespace);
    expect(c.fsck).toBe('');
    expect((await inspect(c.dir)).deltas).toBeGreaterThan(0);
  });
});
