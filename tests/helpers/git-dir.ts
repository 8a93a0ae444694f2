// The system `git` on plain repositories in temp dirs: run it, read every object it holds, and write objects and
// refs it will read (loose objects, ref files), so tests can check our encoding against git in both directions.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { hashObject, isObjectType, isOid, type ObjectType } from '../../functions/repositories/git/oid.ts';

export interface GitObject {
  oid: string;
  type: ObjectType;
  body: Uint8Array;
}

/** Whether a `git` command is on the PATH (.ci/run installs it; a suite skips itself without it). */
export function hasGit(): boolean {
  return spawnSync('git', ['--version']).status === 0;
}

// No user or system configuration (a developer's hooks, signing or default branch must not change the result) and
// a fixed identity; callers' env wins.
const BASE_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
};

export interface GitRun {
  /** Bytes for the command's stdin. */
  input?: Uint8Array | string;
  env?: Record<string, string>;
}

/** Runs git in `dir` and resolves to its stdout bytes and stderr; rejects with stderr when it exits non-zero. */
export function runGit(dir: string, args: readonly string[], { input, env }: GitRun = {}): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: dir, env: { ...process.env, ...BASE_ENV, ...env } });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    // A git that exits without reading its input (an error) must not also fail the write to its stdin.
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      const err = Buffer.concat(stderr).toString();
      if (code === 0) resolve({ stdout: Buffer.concat(stdout), stderr: err });
      else reject(new Error(`git ${args.join(' ')} exited with ${code}: ${err}`));
    });
    child.stdin.end(input);
  });
}

/** git's stdout as text, without the final newline. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  return (await runGit(dir, args)).stdout.toString().replace(/\n$/, '');
}

/** Every object in the repository at `dir` (a work tree or a git dir), loose and packed, reachable or not. */
export async function readGitObjects(dir: string): Promise<GitObject[]> {
  const { stdout } = await runGit(dir, ['cat-file', '--batch-all-objects', '--batch']);
  // Each object is `<oid> <type> <size>\n<size bytes>\n`; the bytes may hold anything, newlines included.
  const objects: GitObject[] = [];
  let offset = 0;
  while (offset < stdout.length) {
    const eol = stdout.indexOf(0x0a, offset);
    const [oid = '', type = '', size = ''] = stdout.subarray(offset, eol).toString().split(' ');
    const start = eol + 1;
    const end = start + Number(size);
    if (eol < 0 || !isOid(oid) || !isObjectType(type) || !/^\d+$/.test(size) || stdout[end] !== 0x0a) {
      throw new Error(`unexpected cat-file output at byte ${offset}`);
    }
    objects.push({ oid, type, body: new Uint8Array(stdout.subarray(start, end)) });
    offset = end + 1;
  }
  return objects;
}

/**
 * Writes each object as a loose object under `<gitDir>/objects`, at the path its given oid names (so a wrong oid is
 * a hash mismatch for `git fsck`, not silently corrected).
 */
export async function writeLooseObjects(gitDir: string, objects: Iterable<GitObject>): Promise<void> {
  for (const { oid, type, body } of objects) {
    const path = join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
    if (existsSync(path)) continue;
    await mkdir(dirname(path), { recursive: true });
    const header = Buffer.from(`${type} ${body.length}\0`);
    await writeFile(path, deflateSync(Buffer.concat([header, body])));
  }
}

/** Points `name` (`refs/heads/main`, `refs/tags/v1`...) at `oid` as a loose ref file. */
export async function writeRef(gitDir: string, name: string, oid: string): Promise<void> {
  if (!name.startsWith('refs/') || !isOid(oid)) throw new Error(`bad ref ${name} -> ${oid}`);
  const path = join(gitDir, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${oid}\n`);
}

/** An object as git would store it: its oid computed by our hashObject. */
export async function gitObject(type: ObjectType, body: Uint8Array): Promise<GitObject> {
  return { oid: await hashObject(type, body), type, body };
}

/**
 * A scratch work tree for the tests that compare with git: `run` is git with author and committer dates a minute
 * after the previous call's (so a history, and its ids, are the same on every run), `put` writes a file, `commit`
 * stages everything and commits (empty commits allowed), answering the new commit's id.
 */
export function scratchRepo(tz = '+0000') {
  let clock = 1_600_000_000;
  const repo = {
    work: '',
    async init(prefix: string): Promise<string> {
      repo.work = await mkdtemp(join(tmpdir(), prefix));
      await repo.run('init', '-q', '-b', 'main');
      return repo.work;
    },
    run(...args: string[]) {
      clock += 60;
      return runGit(repo.work, args, { env: { GIT_AUTHOR_DATE: `${clock} ${tz}`, GIT_COMMITTER_DATE: `${clock} ${tz}` } });
    },
    put: (path: string, content: string | Uint8Array) => writeFile(join(repo.work, path), content),
    async commit(message: string): Promise<string> {
      await repo.run('add', '-A');
      await repo.run('commit', '-q', '--allow-empty', '-m', message);
      return git(repo.work, 'rev-parse', 'HEAD');
    },
  };
  return repo;
}
