// The archive against the system `git archive`: a repository git builds (executables, symlinks short and long,
// paths too long for ustar's name field and for its prefix too, a unicode name, an empty file, a submodule, 600
// files, a blob large enough to be read in slices) is loaded into the store; our tar is git's tar byte for byte
// (plain, gzip'd and bzip2'd, whole and for a path), and our zip holds what git's zip holds.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepository, findRepository, setDefaultBranchQuery } from '../../../db/queries/repositories/refs.ts';
import { LARGE_BLOB } from '../../../functions/repositories/archives/stream.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { appFetch, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { git, hasGit, readGitObjects, runGit } from '../../helpers/git-dir.ts';
import { decompress, fetchArchive, listArchive, type ListedEntry } from './archive-support.ts';

const TIME = 1_650_000_000;
const SUBMODULE = '89abcdef0123456789abcdef0123456789abcdef';
const LONG_DIR = `${'a'.repeat(60)}/${'b'.repeat(60)}`;
const LONG_NAME = 'n'.repeat(120);

describe.runIf(hasGit())('repository archives agree with git archive', () => {
  let work: string;
  let token: string;
  let id: number;
  let path: string;
  let head: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'archive-git-'));
    const env = { GIT_AUTHOR_DATE: `${TIME} +0200`, GIT_COMMITTER_DATE: `${TIME} +0200` };
    await runGit(work, ['init', '-q', '-b', 'main']);
    await mkdir(join(work, 'src/lib'), { recursive: true });
    await mkdir(join(work, LONG_DIR), { recursive: true });
    await mkdir(join(work, 'many'));
    await writeFile(join(work, 'README.md'), '# Project\n');
    // git's order puts `src-x` and `src.txt` before the directory `src` ('-' and '.' sort before '/').
    await writeFile(join(work, 'src-x'), 'x\n');
    await writeFile(join(work, 'src.txt'), 'txt\n');
    await writeFile(join(work, 'empty.txt'), '');
    await writeFile(join(work, 'ünïcödé.txt'), 'ü\n');
    await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(work, 'run.sh'), 0o755);
    await writeFile(join(work, 'src/lib/util.ts'), 'export const util = 1;\n');
    await writeFile(join(work, 'src/main.ts'), 'import "./lib/util";\n'.repeat(50));
    await writeFile(join(work, LONG_DIR, 'file.txt'), 'deep\n');
    await writeFile(join(work, LONG_DIR, LONG_NAME), 'long name\n');
    await symlink('README.md', join(work, 'link'));
    await symlink('t'.repeat(150), join(work, 'long-link'));
    // Long runs (bzip2's run-length stage splits them at 255) and bytes that do not compress.
    await writeFile(join(work, 'zeros.bin'), new Uint8Array(70_000));
    await writeFile(join(work, 'random.bin'), crypto.getRandomValues(new Uint8Array(50_000)));
    for (let i = 0; i < 600; i++) await writeFile(join(work, 'many', `f${i}.txt`), `file ${i}\n`);
    // Larger than LARGE_BLOB: read in slices. Lines that differ, so it compresses but not to nothing.
    const lines: string[] = [];
    for (let i = 0; lines.length * 40 < LARGE_BLOB + 300_000; i++) lines.push(`line ${i} ${(i * 2654435761) % 1000003}`.padEnd(39, '.'));
    await writeFile(join(work, 'big.txt'), `${lines.join('\n')}\n`);
    await runGit(work, ['add', '-A']);
    await runGit(work, ['update-index', '--add', '--cacheinfo', `160000,${SUBMODULE},vendor/lib`]);
    await runGit(work, ['commit', '-q', '-m', 'Everything'], { env });
    head = await git(work, 'rev-parse', 'HEAD');

    ({ token } = await createUser());
    ({ id, path } = await createProject(token));
    const poolId = (await findRepository(testDb().db, id))?.poolId ?? (await createRepository(testDb().db, id));
    await setDefaultBranchQuery(testDb().db, id, 'main');
    await applyWrite(testDb(), poolId, await prepareWrite(await readGitObjects(work)), [{ projectId: id, name: 'refs/heads/main', old: null, new: head }]);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const gitArchive = async (format: 'tar' | 'zip', prefix: string, pathspec?: string) =>
    // TZ: git dates zip entries in the local zone; a Gitaly server's (and ours) is UTC.
    (await runGit(work, ['archive', `--format=${format}`, `--prefix=${prefix}/`, head, ...(pathspec ? ['--', pathspec] : [])], { env: { TZ: 'UTC' } })).stdout;
  const ours = async (suffix: string, query = '') => {
    const res = await fetchArchive(`/projects/${id}/repository/archive${suffix}${query}`, token);
    expect(res.status).toBe(200);
    return res.bytes;
  };
  const prefix = () => `${path}-main-${head}`;

  it('tar: byte for byte what git archive --format=tar writes', async () => {
    const expected = await gitArchive('tar', prefix());
    const actual = Buffer.from(await ours('.tar'));
    expect(actual.length).toBe(expected.length);
    expect(actual.equals(expected)).toBe(true);
    // What tar itself lists: modes, symlinks and the long paths.
    const listing = spawnSync('tar', ['-tvf', '-'], { input: actual }).stdout.toString();
    expect(listing).toMatch(/^-rwxrwxr-x root\/root +\d+ \S+ \S+ \S+\/run\.sh$/m);
    expect(listing).toMatch(/^lrwxrwxrwx root\/root +0 \S+ \S+ \S+\/link -> README\.md$/m);
    expect(listing).toContain(`/long-link -> ${'t'.repeat(150)}`);
    expect(listing).toContain(`/${LONG_DIR}/${LONG_NAME}`);
    expect(listing).toMatch(/^drwxrwxr-x root\/root +0 \S+ \S+ \S+\/vendor\/lib\/$/m);
  });

  it('tar with a path: git archive -- <path>, byte for byte', async () => {
    for (const pathspec of ['src', 'src/lib/util.ts', LONG_DIR, 'vendor/lib']) {
      const name = `${prefix()}-${pathspec.replaceAll('/', '-')}`;
      const expected = await gitArchive('tar', name, pathspec);
      const actual = Buffer.from(await ours('.tar', `?path=${encodeURIComponent(pathspec)}`));
      expect(actual.equals(expected), pathspec).toBe(true);
    }
  });

  it('streams: the body comes in chunks of at most a blob slice, never the archive whole', async () => {
    const expected = await gitArchive('tar', prefix());
    const res = await appFetch(new URL(`/api/v4/projects/${id}/repository/archive.tar`, TEST_PUBLIC_URL), { headers: { 'PRIVATE-TOKEN': token } });
    const reader = res.body!.getReader();
    const sizes: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) sizes.push(next.value.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(expected.length);
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
  });

  it('tar.gz and tar.bz2 decompress to the same tar', async () => {
    const expected = await gitArchive('tar', prefix());
    expect(decompress(await ours(''), 'gzip').equals(expected)).toBe(true);
    expect(decompress(await ours('.tar.bz2'), 'bzip2').equals(expected)).toBe(true);
  });

  it('zip: the entries, bodies, modes, dates and comment of git archive --format=zip', async () => {
    const expected = listArchive(await gitArchive('zip', prefix()), 'zip');
    const actual = listArchive(await ours('.zip'), 'zip');
    expect(actual.bad).toBeNull();
    expect(actual.comment).toBe(head);
    expect(actual.comment).toBe(expected.comment);
    const shape = (e: ListedEntry) => ({
      name: e.name,
      type: e.type,
      size: e.size,
      sha256: e.sha256,
      unixMode: (e.attr! >>> 16).toString(8),
      dosDirectory: Boolean(e.attr! & 0x10),
      date: e.date,
    });
    expect(actual.entries.map(shape)).toEqual(expected.entries.map(shape));
    const byName = new Map(actual.entries.map((e) => [e.name, e]));
    expect((byName.get(`${prefix()}/run.sh`)!.attr! >>> 16).toString(8)).toBe('100755');
    expect((byName.get(`${prefix()}/link`)!.attr! >>> 16).toString(8)).toBe('120777');
    expect(byName.get(`${prefix()}/link`)!.text).toBe('README.md');
  });
});
