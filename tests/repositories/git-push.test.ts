// git push over HTTP, driven by the real `git` against a served instance: what it stores (read back through the API
// and by a fresh clone under `git fsck --strict`), thin packs with deltas against stored objects, force pushes,
// GitLab's pre-receive refusals with their words, atomic pushes, two racing pushes, corrupt packs that store
// nothing, push options and the `remote:` lines, and who may push.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, appFetch, serveTestApp } from '../helpers/app.ts';
import { registerRunner, runUntilIdle, type Fetch } from '../helpers/ci-runner.ts';
import { git, hasGit, runGit } from '../helpers/git-dir.ts';
import { addMember, createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createToken, createUser, unique } from '../factories/users.ts';

const REPORTER = 20;
const DEVELOPER = 30;
const ZERO = '0'.repeat(40);

type Server = Awaited<ReturnType<typeof serveTestApp>>;

/** `git push --porcelain` and all it printed (the status lines on stdout, `remote:` lines on stderr); never throws. */
function push(dir: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['push', '--porcelain', ...args], {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ok: code === 0, out: Buffer.concat(out).toString() }));
  });
}

/** git's `remote:` lines without the padding git adds after each. */
const remote = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.replace(/\s+$/, ''));

async function newRepo(work: string, name: string): Promise<string> {
  const dir = join(work, name);
  await runGit(work, ['init', '-q', '-b', 'master', dir]);
  return dir;
}

async function commitFiles(dir: string, message: string, files: Record<string, string | Uint8Array>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    const parts = path.split('/');
    await mkdir(join(dir, ...parts.slice(0, -1)), { recursive: true });
    await writeFile(join(dir, ...parts), content);
  }
  await runGit(dir, ['add', '-A']);
  await runGit(dir, ['commit', '-q', '-m', message]);
  return git(dir, 'rev-parse', 'HEAD');
}

describe.skipIf(!hasGit())('git over HTTP: receive-pack', () => {
  let server: Server;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let work: string;
  const url = (path: string, token: string) => `${server.url.replace('://', `://x:${token}@`)}/${path}.git`;

  beforeAll(async () => {
    server = await serveTestApp();
    owner = await createUser();
    work = await mkdtemp(join(tmpdir(), 'git-push-'));
  });
  afterAll(() => server.close());

  it('a push into an empty project makes its default branch; the API reads what git wrote, a clone passes fsck --strict', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'first');
    const binary = new Uint8Array(5 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    await commitFiles(dir, 'first', { 'README.md': '# pushed\n', 'src/a.txt': 'a\n', 'big.bin': binary, 'model.bin': pointer });
    // A file name that is not UTF-8 (Latin-1 "né.txt"): git stores bytes, and so must the server.
    await writeFile(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74])]), 'latin-1 name\n');
    await runGit(dir, ['add', '-A']);
    await runGit(dir, ['commit', '-q', '-m', 'second\n\nwith a body']);
    const result = await push(dir, [url(project.path_with_namespace, owner.token), 'master']);
    expect(result.ok).toBe(true);
    expect(result.out).toContain(`*\trefs/heads/master:refs/heads/master\t[new branch]`);

    const got = await api.get(`/projects/${project.id}`, { token: owner.token });
    expect(got.body.default_branch).toBe('master');
    const commits = await api.get(`/projects/${project.id}/repository/commits`, { token: owner.token });
    expect(commits.body.map((c: { id: string }) => c.id)).toEqual((await git(dir, 'log', '--format=%H')).split('\n'));
    expect(commits.body[0].message).toBe('second\n\nwith a body\n');
    const file = await api.get(`/projects/${project.id}/repository/files/src%2Fa.txt/raw?ref=master`, { token: owner.token });
    expect(file.text).toBe('a\n');
    const big = await api.get(`/projects/${project.id}/repository/files/big.bin?ref=master`, { token: owner.token });
    expect(big.body.size).toBe(binary.length);
    expect(big.body.blob_id).toBe(await git(dir, 'rev-parse', 'HEAD:big.bin'));
    // An LFS pointer is a file like any other: stored and served as the pointer.
    const lfs = await api.get(`/projects/${project.id}/repository/files/model.bin/raw?ref=master`, { token: owner.token });
    expect(lfs.text).toBe(pointer);
    const tree = await api.get(`/projects/${project.id}/repository/tree?per_page=100`, { token: owner.token });
    expect(tree.body.map((e: { id: string }) => e.id).sort()).toEqual((await git(dir, 'ls-tree', 'HEAD', '--format=%(objectname)')).split('\n').sort());
    const events = await api.get(`/projects/${project.id}/events`, { token: owner.token });
    const pushes = events.body.filter((e: { push_data?: unknown }) => e.push_data);
    expect(
      pushes.map((e: { action_name: string; push_data: { ref: string; commit_count: number } }) => [e.action_name, e.push_data.ref, e.push_data.commit_count]),
    ).toEqual([['pushed new', 'master', 2]]);

    const clone = join(work, 'first-clone');
    await runGit(work, ['clone', '-q', url(project.path_with_namespace, owner.token), clone]);
    await runGit(clone, ['fsck', '--strict']);
    expect(await git(clone, 'rev-parse', 'HEAD')).toBe(await git(dir, 'rev-parse', 'HEAD'));
    expect([...(await readFile(join(clone, 'big.bin')))].slice(0, 64)).toEqual([...binary.slice(0, 64)]);
  });

  it('a thin pack with deltas against stored objects is resolved: the API and a clone read the new content', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'thin');
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('');
    await commitFiles(dir, 'base', { 'text.txt': lines });
    expect((await push(dir, [url(project.path_with_namespace, owner.token), 'master'])).ok).toBe(true);
    await commitFiles(dir, 'edit', { 'text.txt': lines.replace('line 1500\n', 'LINE 1500\n') });
    const { stderr } = await runGit(dir, ['push', '-v', url(project.path_with_namespace, owner.token), 'master']);
    // The pack carries the new blob as a delta against the one stored: far smaller than the file.
    const sent = Number(/POST git-receive-pack \((\d+) bytes\)/.exec(stderr)?.[1] ?? 'NaN');
    expect(sent).toBeLessThan(2000);
    const file = await api.get(`/projects/${project.id}/repository/files/text.txt/raw?ref=master`, { token: owner.token });
    expect(file.text).toBe(lines.replace('line 1500\n', 'LINE 1500\n'));
    const compare = await api.get(`/projects/${project.id}/repository/compare?from=master~1&to=master`, { token: owner.token });
    expect(compare.body.diffs[0].diff).toBe(
      await git(dir, 'diff', '--format=', 'HEAD~1', 'HEAD', '--', 'text.txt').then((d) => d.slice(d.indexOf('@@')) + '\n'),
    );
  });

  it("force pushes: allowed on a branch, refused on the protected default branch with GitLab's words; deletions", async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'force');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    await commitFiles(dir, 'one', { a: '1\n' });
    await commitFiles(dir, 'two', { a: '2\n' });
    await runGit(dir, ['branch', 'topic']);
    expect((await push(dir, [remoteUrl, 'master', 'topic'])).ok).toBe(true);
    await runGit(dir, ['reset', '-q', '--hard', 'HEAD~1']);
    const diverged = await commitFiles(dir, 'diverged', { a: 'd\n' });

    const forcedTopic = await push(dir, ['-f', remoteUrl, 'HEAD:topic']);
    expect(forcedTopic.ok).toBe(true);
    expect(forcedTopic.out).toMatch(/^\+\tHEAD:refs\/heads\/topic\t[0-9a-f]+\.\.\.[0-9a-f]+ \(forced update\)$/m);
    expect((await api.get(`/projects/${project.id}/repository/branches/topic`, { token: owner.token })).body.commit.id).toBe(diverged);

    const forcedMaster = await push(dir, ['-f', remoteUrl, 'master']);
    expect(forcedMaster.ok).toBe(false);
    expect(remote(forcedMaster.out)).toContain('remote: GitLab: You are not allowed to force push code to a protected branch on this project.');
    expect(forcedMaster.out).toContain('!\trefs/heads/master:refs/heads/master\t[remote rejected] (pre-receive hook declined)');

    const deleteDefault = await push(dir, [remoteUrl, ':master']);
    expect(remote(deleteDefault.out)).toContain('remote: GitLab: The default branch of a project cannot be deleted.');
    const deleteTopic = await push(dir, [remoteUrl, ':topic']);
    expect(deleteTopic.ok).toBe(true);
    expect((await api.get(`/projects/${project.id}/repository/branches/topic`, { token: owner.token })).status).toBe(404);
    const events = await api.get(`/projects/${project.id}/events`, { token: owner.token });
    const pushes = events.body.filter((e: { push_data?: unknown }) => e.push_data);
    expect(pushes.map((e: { action_name: string; push_data: { ref: string } }) => `${e.action_name} ${e.push_data.ref}`)).toEqual([
      'deleted topic',
      'pushed to topic',
      'pushed new topic',
      'pushed new master',
    ]);
  });

  it('protected branches and tags as GitLab 13.6: a developer may not push to master nor create a protected tag', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'protected');
    await commitFiles(dir, 'one', { a: '1\n' });
    expect((await push(dir, [url(project.path_with_namespace, owner.token), 'master'])).ok).toBe(true);
    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
    const protect = await api.post(`/projects/${project.id}/protected_tags`, { token: owner.token, body: { name: 'v*' } });
    expect(protect.status).toBe(201);
    const asDeveloper = url(project.path_with_namespace, developer.token);
    await commitFiles(dir, 'two', { a: '2\n' });
    const refused = await push(dir, [asDeveloper, 'master']);
    expect(remote(refused.out)).toEqual(['remote: GitLab: You are not allowed to push code to protected branches on this project.']);
    await runGit(dir, ['tag', 'v1']);
    const tag = await push(dir, [asDeveloper, 'v1']);
    expect(remote(tag.out)).toEqual(['remote: GitLab: You are not allowed to create this tag as it is protected.']);
    // A branch of their own is theirs to push.
    const own = await push(dir, [asDeveloper, 'master:dev-branch']);
    expect(own.ok).toBe(true);
    expect(remote(own.out)).toEqual([
      'remote:',
      'remote: To create a merge request for dev-branch, visit:',
      `remote:   ${server.url}/${project.path_with_namespace}/-/merge_requests/new?merge_request%5Bsource_branch%5D=dev-branch`,
      'remote:',
    ]);
    // printing_merge_request_link_enabled off: the same kind of push prints no link.
    expect((await api.put(`/projects/${project.id}`, { token: owner.token, body: { printing_merge_request_link_enabled: false } })).status).toBe(200);
    const quiet = await push(dir, [asDeveloper, 'master:dev-branch-2']);
    expect(quiet.ok).toBe(true);
    expect(remote(quiet.out)).toEqual([]);
    // A refused push stored no ref.
    expect((await api.get(`/projects/${project.id}/repository/tags`, { token: owner.token })).body).toEqual([]);
  });

  it('a developer cannot make the first push of an empty project (its default branch would be protected)', async () => {
    const project = await createProject(owner.token);
    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
    const dir = await newRepo(work, 'empty-dev');
    await commitFiles(dir, 'one', { a: '1\n' });
    const refused = await push(dir, [url(project.path_with_namespace, developer.token), 'master']);
    expect(remote(refused.out)).toEqual([
      `remote: GitLab: A default branch (e.g. master) does not yet exist for ${project.path_with_namespace}`,
      'remote: Ask a project Owner or Maintainer to create a default branch:',
      'remote:',
      `remote:   ${server.url}/${project.path_with_namespace}/-/project_members`,
    ]);
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.default_branch).toBeNull();
  });

  it('--atomic moves every ref or none; without it, the refs git refuses leave the others moving', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'atomic');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    await commitFiles(dir, 'one', { a: '1\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    await commitFiles(dir, 'two', { a: '2\n' });
    // refs/keep-around/ is hidden (GitLab's transfer.hideRefs): git refuses to update it.
    const atomic = await push(dir, ['--atomic', remoteUrl, 'master', 'master:refs/keep-around/x']);
    expect(atomic.ok).toBe(false);
    expect(atomic.out).toContain('!\trefs/heads/master:refs/heads/master\t[remote rejected] (atomic push failure)');
    expect(atomic.out).toContain('!\trefs/heads/master:refs/keep-around/x\t[remote rejected] (deny updating a hidden ref)');
    const before = await api.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token });
    expect(before.body.commit.id).toBe(await git(dir, 'rev-parse', 'HEAD~1'));
    const plain = await push(dir, [remoteUrl, 'master', 'master:refs/keep-around/x']);
    expect(plain.out).toContain('!\trefs/heads/master:refs/keep-around/x\t[remote rejected] (deny updating a hidden ref)');
    const after = await api.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token });
    expect(after.body.commit.id).toBe(await git(dir, 'rev-parse', 'HEAD'));
  });

  it('a shallow clone (--depth 1) pushes what it builds on top; history the project lacks is refused', async () => {
    const project = await createProject(owner.token);
    const remoteUrl = url(project.path_with_namespace, owner.token);
    const dir = await newRepo(work, 'shallow-source');
    for (let i = 0; i < 3; i++) await commitFiles(dir, `c${i}`, { a: `${i}\n` });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    const shallow = join(work, 'shallow-clone');
    await runGit(work, ['clone', '-q', '--depth', '1', remoteUrl, shallow]);
    const next = await commitFiles(shallow, 'on a shallow clone', { b: 'b\n' });
    expect((await push(shallow, ['origin', 'master'])).ok).toBe(true);
    expect((await api.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token })).body.commit.id).toBe(next);
    // A shallow clone of another repository cannot push its cut history into an empty project.
    const empty = await createProject(owner.token);
    const refused = await push(shallow, [url(empty.path_with_namespace, owner.token), 'master']);
    expect(refused.ok).toBe(false);
    expect(refused.out).toContain('[remote rejected] (missing necessary objects)');
  });

  it('two pushes racing on one branch: one wins, the other is rejected and stores nothing of its own', async () => {
    const project = await createProject(owner.token);
    const remoteUrl = url(project.path_with_namespace, owner.token);
    const base = await newRepo(work, 'race-base');
    await commitFiles(base, 'base', { a: '0\n' });
    expect((await push(base, [remoteUrl, 'master'])).ok).toBe(true);
    const racers = await Promise.all(
      ['race-a', 'race-b'].map(async (name) => {
        const dir = join(work, name);
        await runGit(work, ['clone', '-q', remoteUrl, dir]);
        const oid = await commitFiles(dir, name, { a: `${name}\n` });
        return { dir, oid };
      }),
    );
    const results = await Promise.all(racers.map((r) => push(r.dir, [remoteUrl, 'master'])));
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    const loser = results.find((r) => !r.ok)!;
    expect(loser.out).toMatch(/\[rejected\] \(fetch first\)|\[remote rejected\] \(failed to update ref\)/);
    const winner = racers[results.findIndex((r) => r.ok)]!;
    expect((await api.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token })).body.commit.id).toBe(winner.oid);
    const lost = racers.find((r) => r !== winner)!;
    expect((await api.get(`/projects/${project.id}/repository/commits/${lost.oid}`, { token: owner.token })).status).toBe(404);
  });

  it('a corrupt or truncated pack is refused (unpacker error) and stores nothing', async () => {
    const project = await createProject(owner.token);
    const post = (body: Buffer) =>
      fetch(`${server.url}/${project.path_with_namespace}.git/git-receive-pack`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-git-receive-pack-request', authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` },
        body: new Uint8Array(body),
      });
    const blob = Buffer.from('hello\n');
    const blobOid = createHash('sha1')
      .update(Buffer.concat([Buffer.from(`blob ${blob.length}\0`), blob]))
      .digest('hex');
    const tree = Buffer.concat([Buffer.from('100644 a\0'), Buffer.from(blobOid, 'hex')]);
    const treeOid = createHash('sha1')
      .update(Buffer.concat([Buffer.from(`tree ${tree.length}\0`), tree]))
      .digest('hex');
    const commit = Buffer.from(`tree ${treeOid}\nauthor A <a@b.c> 1700000000 +0000\ncommitter A <a@b.c> 1700000000 +0000\n\nx\n`);
    const commitOid = createHash('sha1')
      .update(Buffer.concat([Buffer.from(`commit ${commit.length}\0`), commit]))
      .digest('hex');
    const entry = (type: number, data: Buffer) =>
      Buffer.concat([
        Buffer.from([(type << 4) | (data.length & 15) | (data.length > 15 ? 0x80 : 0), ...(data.length > 15 ? [data.length >> 4] : [])]),
        deflateSync(data),
      ]);
    const body = Buffer.concat([Buffer.from('PACK'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 3]), entry(3, blob), entry(2, tree), entry(1, commit)]);
    const pack = Buffer.concat([body, createHash('sha1').update(body).digest()]);
    const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;
    const request = (p: Buffer) => Buffer.concat([Buffer.from(`${pkt(`${ZERO} ${commitOid} refs/heads/master\0report-status\n`)}0000`), p]);
    const report = (unpack: string, ref: string) => `${pkt(`unpack ${unpack}\n`)}${pkt(`${ref}\n`)}0000`;

    const corrupt = Buffer.from(pack);
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 1) ^ 0xff, corrupt.length - 1);
    expect(await (await post(request(corrupt))).text()).toBe(report('index-pack abnormal exit', 'ng refs/heads/master unpacker error'));
    expect(await (await post(request(pack.subarray(0, 40)))).text()).toBe(report('index-pack abnormal exit', 'ng refs/heads/master unpacker error'));
    expect(await (await post(request(Buffer.from('PACX\0\0\0\x02\0\0\0\x01')))).text()).toBe(
      report('protocol error (pack signature mismatch detected)', 'ng refs/heads/master unpacker error'),
    );
    expect((await api.get(`/projects/${project.id}/repository/commits/${commitOid}`, { token: owner.token })).status).toBe(404);
    // The same pack whole goes through.
    expect(await (await post(request(pack))).text()).toBe(report('ok', 'ok refs/heads/master'));
    expect((await api.get(`/projects/${project.id}/repository/commits/${commitOid}`, { token: owner.token })).body.id).toBe(commitOid);
  });

  it('a tree git fsck refuses (a .git entry) is refused whole', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'dotgit');
    await commitFiles(dir, 'one', { a: '1\n' });
    const blob = await git(dir, 'rev-parse', 'HEAD:a');
    const { stdout } = await runGit(dir, ['mktree'], { input: `100644 blob ${blob}\t.GIT\n` });
    const tree = stdout.toString().trim();
    const bad = (await runGit(dir, ['commit-tree', tree, '-m', 'bad'])).stdout.toString().trim();
    const result = await push(dir, [url(project.path_with_namespace, owner.token), `${bad}:refs/heads/master`]);
    expect(result.ok).toBe(false);
    expect(result.out).toContain('hasDotgit');
    expect(result.out).toContain('[remote rejected] (unpacker error)');
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.default_branch).toBeNull();
  });

  it('push options: merge_request.create opens the merge request; the next push links to it', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'options');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    await commitFiles(dir, 'one', { a: '1\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    await runGit(dir, ['checkout', '-q', '-b', 'feature-x']);
    await commitFiles(dir, 'feature work', { b: '2\n' });
    const created = await push(dir, [
      '-o',
      'merge_request.create',
      '-o',
      'merge_request.target=master',
      '-o',
      'merge_request.title=From a push',
      remoteUrl,
      'feature-x',
    ]);
    expect(created.ok).toBe(true);
    const mrs = await api.get(`/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(mrs.body.map((m: { title: string; source_branch: string; target_branch: string }) => [m.title, m.source_branch, m.target_branch])).toEqual([
      ['From a push', 'feature-x', 'master'],
    ]);
    const link = `remote:   ${server.url}/${project.path_with_namespace}/-/merge_requests/${mrs.body[0].iid}`;
    expect(remote(created.out)).toEqual(['remote:', 'remote: View merge request for feature-x:', link, 'remote:']);
    // Options for a branch with an open merge request update it.
    await api.post(`/projects/${project.id}/labels`, { token: owner.token, body: { name: 'ready', color: '#00ff00' } });
    await commitFiles(dir, 'more work', { b: '3\n' });
    const updated = await push(dir, ['-o', 'merge_request.title=Renamed by a push', '-o', 'merge_request.label=ready', remoteUrl, 'feature-x']);
    expect(updated.ok).toBe(true);
    const mr = await api.get(`/projects/${project.id}/merge_requests/${mrs.body[0].iid}`, { token: owner.token });
    expect([mr.body.title, mr.body.labels]).toEqual(['Renamed by a push', ['ready']]);
    // Options that need merge_request.create without it: GitLab's warning, framed as its alerts.
    await runGit(dir, ['checkout', '-q', '-b', 'feature-y']);
    await commitFiles(dir, 'more', { c: '3\n' });
    const warned = await push(dir, ['-o', 'merge_request.target=master', remoteUrl, 'feature-y']);
    expect(remote(warned.out)).toEqual([
      'remote: ========================================================================',
      'remote:',
      'remote:              WARNINGS: Error encountered with push options',
      "remote:   'merge_request.target=master': A merge_request.create push option is",
      'remote:         required to create a merge request for branch feature-y',
      'remote:',
      'remote: ========================================================================',
      'remote:',
      'remote: To create a merge request for feature-y, visit:',
      `remote:   ${server.url}/${project.path_with_namespace}/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature-y`,
      'remote:',
    ]);
  });

  it('a renamed or moved project is served at its former paths; a push there says where it moved; a project at a former path takes it', async () => {
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    const dir = await newRepo(work, 'moved');
    const first = await commitFiles(dir, 'one', { a: '1\n' });
    const oldPath = project.path_with_namespace;
    expect((await push(dir, [url(oldPath, owner.token), 'master'])).ok).toBe(true);
    const renamed = await api.put(`/projects/${project.id}`, { token: owner.token, body: { path: `${project.path}-renamed` } });
    expect(renamed.status).toBe(200);
    const newPath = renamed.body.path_with_namespace as string;
    // Served at the former path itself (GitLab's follow_redirects), not redirected.
    expect(await git(work, 'ls-remote', url(oldPath, owner.token), 'refs/heads/master')).toBe(`${first}\trefs/heads/master`);
    const second = await commitFiles(dir, 'two', { a: '2\n' });
    const pushed = await push(dir, [url(oldPath, owner.token), 'master']);
    expect(pushed.ok).toBe(true);
    expect(remote(pushed.out)).toEqual([
      'remote:',
      `remote: Project '${oldPath}' was moved to '${newPath}'.`,
      'remote:',
      'remote: Please update your Git remote:',
      'remote:',
      `remote:   git remote set-url origin ${server.url}/${newPath}.git`,
      'remote:',
    ]);
    expect(await git(work, 'ls-remote', url(newPath, owner.token), 'refs/heads/master')).toBe(`${second}\trefs/heads/master`);
    // Nobody else learns the project exists through its former path: anonymous 401, as at any private path.
    const anonymous = await fetch(`${server.url}/${oldPath}.git/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    // A new project at a former path takes it over.
    const taker = await createProject(owner.token, { namespaceId: group.id, path: project.path });
    expect(taker.path_with_namespace).toBe(oldPath);
    const takerDir = await newRepo(work, 'taker');
    const takerHead = await commitFiles(takerDir, 'taker', { t: '1\n' });
    expect((await push(takerDir, [url(oldPath, owner.token), 'master'])).ok).toBe(true);
    expect(await git(work, 'ls-remote', url(oldPath, owner.token), 'refs/heads/master')).toBe(`${takerHead}\trefs/heads/master`);
    // The group renamed: each project's paths under the group's former path lead to it.
    const movedGroup = await api.put(`/groups/${group.id}`, { token: owner.token, body: { path: `${group.path}-moved` } });
    expect(movedGroup.status).toBe(200);
    expect(await git(work, 'ls-remote', url(newPath, owner.token), 'refs/heads/master')).toBe(`${second}\trefs/heads/master`);
    expect(await git(work, 'ls-remote', url(oldPath, owner.token), 'refs/heads/master')).toBe(`${takerHead}\trefs/heads/master`);
  });

  it('push option merge_request.merge_when_pipeline_succeeds: the new merge request merges, as the pusher, when its pipeline succeeds', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'auto-merge');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    await commitFiles(dir, 'ci', { '.gitlab-ci.yml': 'build:\n  script: [echo ok]\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    await runGit(dir, ['checkout', '-q', '-b', 'auto']);
    const head = await commitFiles(dir, 'feature', { 'feature.txt': 'x\n' });
    const pushed = await push(dir, ['-o', 'merge_request.create', '-o', 'merge_request.merge_when_pipeline_succeeds', remoteUrl, 'auto']);
    expect(pushed.ok).toBe(true);
    const [mr] = (await api.get(`/projects/${project.id}/merge_requests`, { token: owner.token })).body;
    expect([mr.source_branch, mr.state, mr.merge_when_pipeline_succeeds]).toEqual(['auto', 'opened', true]);
    // The push's pipeline comes after the push's response (post_receive); its success merges.
    await vi.waitFor(
      async () => expect((await api.get(`/projects/${project.id}/pipelines?sha=${head}`, { token: owner.token })).body.length).toBeGreaterThan(0),
      { timeout: 10_000, interval: 50 },
    );
    const runnersToken = (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
    const ciFetch: Fetch = (input, init) => appFetch(input, init);
    await runUntilIdle(ciFetch, await registerRunner(ciFetch, runnersToken), { workDir: await mkdtemp(join(tmpdir(), 'git-push-ci-')) });
    const merged = await api.get(`/projects/${project.id}/merge_requests/${mr.iid}`, { token: owner.token });
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: owner.user.id } });
  });

  it('a push makes its pipelines as an API commit does; ci.variable sets their variables; ci.skip and [ci skip] keep them, skipped', async () => {
    const project = await createProject(owner.token);
    const dir = await newRepo(work, 'pipelines');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    const pipelineOf = (sha: string) =>
      vi.waitFor(
        async () => {
          const res = await api.get(`/projects/${project.id}/pipelines?sha=${sha}`, { token: owner.token });
          expect(res.body).toHaveLength(1);
          return res.body[0] as { status: string; ref: string; source: string };
        },
        { timeout: 10_000, interval: 50 },
      );
    const first = await commitFiles(dir, 'ci', { '.gitlab-ci.yml': 'build:\n  script: [echo hi]\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    expect(await pipelineOf(first)).toMatchObject({ status: 'pending', ref: 'master' });
    const optioned = await commitFiles(dir, 'two', { a: '2\n' });
    expect((await push(dir, ['-o', 'ci.skip', remoteUrl, 'master'])).ok).toBe(true);
    expect(await pipelineOf(optioned)).toMatchObject({ status: 'skipped', ref: 'master' });
    const withVariable = await commitFiles(dir, 'variables', { a: 'v\n' });
    expect((await push(dir, ['-o', 'ci.variable=DEPLOY=yes', '-o', 'ci.variable=TARGET=staging=1', remoteUrl, 'master'])).ok).toBe(true);
    const variablePipeline = await vi.waitFor(
      async () => {
        const res = await api.get(`/projects/${project.id}/pipelines?sha=${withVariable}`, { token: owner.token });
        expect(res.body).toHaveLength(1);
        return res.body[0] as { id: number };
      },
      { timeout: 10_000, interval: 50 },
    );
    const variables = await api.get(`/projects/${project.id}/pipelines/${variablePipeline.id}/variables`, { token: owner.token });
    expect(variables.body.map((v: { key: string; value: string }) => [v.key, v.value]).sort()).toEqual([
      ['DEPLOY', 'yes'],
      ['TARGET', 'staging=1'],
    ]);
    const messaged = await commitFiles(dir, 'three [ci skip]', { a: '3\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    expect(await pipelineOf(messaged)).toMatchObject({ status: 'skipped' });
    const jobs = await api.get(`/projects/${project.id}/jobs`, { token: owner.token });
    expect(jobs.body).toHaveLength(2);
  });

  it('commits pushed to the default branch close the issues they name, as commits through the API do; elsewhere not', async () => {
    const project = await createProject(owner.token);
    const issue = async (title: string) => (await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title } })).body.iid as number;
    const [viaPush, viaApi, onBranch] = [await issue('one'), await issue('two'), await issue('three')];
    const dir = await newRepo(work, 'closing');
    const remoteUrl = url(project.path_with_namespace, owner.token);
    await commitFiles(dir, 'base', { a: '1\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    await runGit(dir, ['checkout', '-q', '-b', 'side']);
    await commitFiles(dir, `Fixes #${onBranch}`, { s: 's\n' });
    expect((await push(dir, [remoteUrl, 'side'])).ok).toBe(true);
    await runGit(dir, ['checkout', '-q', 'master']);
    const closer = await commitFiles(dir, `A fix\n\nCloses #${viaPush}`, { a: '2\n' });
    expect((await push(dir, [remoteUrl, 'master'])).ok).toBe(true);
    const commit = await api.post(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'master', commit_message: `Resolves #${viaApi}`, actions: [{ action: 'create', file_path: 'b', content: 'b' }] },
    });
    expect(commit.status).toBe(201);
    const states = () =>
      Promise.all([viaPush, viaApi, onBranch].map(async (iid) => (await api.get(`/projects/${project.id}/issues/${iid}`, { token: owner.token })).body.state));
    await vi.waitFor(async () => expect(await states()).toEqual(['closed', 'closed', 'opened']), { timeout: 10_000, interval: 50 });
    const notes = await api.get(`/projects/${project.id}/issues/${viaPush}/notes`, { token: owner.token });
    expect(notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system])).toEqual([[`closed via commit ${closer}`, true]]);
  });

  it('a fork: cloned, pushed to, and a merge request from it into its source', async () => {
    const source = await createProject(owner.token, { visibility: 'public' });
    const dir = await newRepo(work, 'fork-source');
    await commitFiles(dir, 'base', { a: '1\n' });
    expect((await push(dir, [url(source.path_with_namespace, owner.token), 'master'])).ok).toBe(true);
    const contributor = await createUser();
    const fork = await api.post(`/projects/${source.id}/fork`, { token: contributor.token });
    expect(fork.status).toBe(201);
    const clone = join(work, 'fork-clone');
    await runGit(work, ['clone', '-q', url(fork.body.path_with_namespace, contributor.token), clone]);
    await runGit(clone, ['checkout', '-q', '-b', 'fix']);
    const fix = await commitFiles(clone, 'a fix', { a: 'fixed\n' });
    const pushed = await push(clone, ['origin', 'fix']);
    expect(pushed.ok).toBe(true);
    // The fork's push is not readable through the source (the pool is shared, the readable sets are not) until a
    // merge request publishes it there (refs/merge-requests/<iid>/head, as GitLab's).
    expect((await api.get(`/projects/${source.id}/repository/commits/${fix}`, { token: owner.token })).status).toBe(404);
    const mr = await api.post(`/projects/${fork.body.id}/merge_requests`, {
      token: contributor.token,
      body: { source_branch: 'fix', target_branch: 'master', target_project_id: source.id, title: 'A fix' },
    });
    expect(mr.status).toBe(201);
    expect(mr.body.sha).toBe(fix);
    const changes = await api.get(`/projects/${source.id}/merge_requests/${mr.body.iid}/changes`, { token: owner.token });
    expect(changes.body.changes.map((c: { new_path: string; diff: string }) => [c.new_path, c.diff])).toEqual([['a', '@@ -1 +1 @@\n-1\n+fixed\n']]);
    expect((await api.get(`/projects/${source.id}/repository/commits/${fix}`, { token: owner.token })).status).toBe(200);
    // The next push to the fork's branch names the open merge request.
    await commitFiles(clone, 'more', { b: '2\n' });
    const again = await push(clone, ['origin', 'fix']);
    expect(remote(again.out)).toEqual([
      'remote:',
      'remote: View merge request for fix:',
      `remote:   ${server.url}/${source.path_with_namespace}/-/merge_requests/${mr.body.iid}`,
      'remote:',
    ]);
  });

  it('size limits: a blob over MAX_FILE_SIZE is refused in GitLab words, a pack over MAX_PUSH_SIZE in git words', async () => {
    const limited = await serveTestApp({ env: { MAX_FILE_SIZE: '1024', MAX_PUSH_SIZE: '20000' } });
    try {
      const project = await createProject(owner.token);
      const remoteUrl = `${limited.url.replace('://', `://x:${owner.token}@`)}/${project.path_with_namespace}.git`;
      const dir = await newRepo(work, 'limits');
      await commitFiles(dir, 'big file', { 'big.txt': 'x'.repeat(2048) });
      const file = await push(dir, [remoteUrl, 'master']);
      expect(remote(file.out), file.out).toEqual(['remote: GitLab: File "big.txt" is larger than the allowed size of 0 MB']);
      expect(file.out).toContain('[remote rejected] (pre-receive hook declined)');
      await runGit(dir, ['reset', '-q', '--hard', 'HEAD']);
      const noise = randomBytes(30_000);
      const small = await newRepo(work, 'limits-pack');
      await commitFiles(small, 'incompressible', { 'a.txt': 'a\n', 'n1.bin': noise.subarray(0, 900), 'n2.bin': noise.subarray(900, 1800) });
      for (let i = 0; i < 30; i++) await commitFiles(small, `noise ${i}`, { [`n${i}.bin`]: noise.subarray(i * 1000, i * 1000 + 1000) });
      const pack = await push(small, [remoteUrl, 'master']);
      expect(pack.out).toContain('remote: fatal: pack exceeds maximum allowed size (20000)');
      expect(pack.out).toContain('[remote rejected] (unpacker error)');
      expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.default_branch).toBeNull();
    } finally {
      await limited.close();
    }
  });

  it('push to create: a push to a free path of a namespace the pusher may create projects in makes a private project', async () => {
    const path = `${owner.user.username}/${unique('pushed')}`;
    const infoRefs = (repo: string, token: string) =>
      fetch(`${server.url}/${repo}.git/info/refs?service=git-receive-pack`, {
        headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
      });
    // The advertisement is an empty repository's, and creates nothing yet.
    const advertised = await infoRefs(path, owner.token);
    expect(advertised.status).toBe(200);
    expect(await advertised.text()).toContain(`${ZERO} capabilities^{}`);
    expect((await api.get(`/projects/${encodeURIComponent(path)}`, { token: owner.token })).status).toBe(404);
    const dir = await newRepo(work, 'push-to-create');
    const head = await commitFiles(dir, 'first', { 'README.md': '# pushed\n' });
    const pushed = await push(dir, [url(path, owner.token), 'master']);
    expect(pushed.ok).toBe(true);
    const web = `${server.url}/${path}`;
    expect(remote(pushed.out)).toEqual([
      'remote:',
      `remote: The private project ${path} was successfully created.`,
      'remote:',
      'remote: To configure the remote, run:',
      `remote:   git remote add origin ${web}.git`,
      'remote:',
      'remote: To view the project, visit:',
      `remote:   ${web}`,
      'remote:',
    ]);
    const project = await api.get(`/projects/${encodeURIComponent(path)}`, { token: owner.token });
    expect([project.status, project.body.visibility, project.body.default_branch]).toEqual([200, 'private', 'master']);
    expect(await git(work, 'ls-remote', url(path, owner.token), 'refs/heads/master')).toBe(`${head}\trefs/heads/master`);
    // The next push is an ordinary one.
    await commitFiles(dir, 'second', { 'README.md': '# pushed again\n' });
    expect(remote((await push(dir, [url(path, owner.token), 'master'])).out)).toEqual([]);

    // Not the pusher's namespace, a namespace that does not exist, a path taken by a group: no project, as for any path.
    const stranger = await createUser();
    for (const repo of [`${owner.user.username}/${unique('theirs')}`, `${unique('nowhere')}/x`]) {
      const res = await infoRefs(repo, stranger.token);
      expect([res.status, await res.text()]).toEqual([404, 'The project you were looking for could not be found.\n']);
    }
    // A path GitLab's format refuses: 422 with the model's words.
    const bad = await infoRefs(`${owner.user.username}/-bad`, owner.token);
    expect([bad.status, await bad.text()]).toEqual([
      422,
      "Could not create project: Path can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'\n",
    ]);
  });

  it('who may push: anonymous 401, a reporter and a read-only token 403 with GitLab words, a developer pushes', async () => {
    const project = await createProject(owner.token, { visibility: 'public' });
    const infoRefs = (auth?: [string, string]) =>
      fetch(`${server.url}/${project.path_with_namespace}.git/info/refs?service=git-receive-pack`, {
        headers: auth ? { authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` } : {},
      });
    const answer = async (res: Response) => [res.status, res.headers.get('www-authenticate'), await res.text()];
    expect(await answer(await infoRefs())).toEqual([401, 'Basic realm="GitLab"', 'HTTP Basic: Access denied\n']);
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, REPORTER);
    expect(await answer(await infoRefs(['x', reporter.token]))).toEqual([403, null, 'You are not allowed to push code to this project.\n']);
    const readOnly = await createToken(owner.user, ['read_repository']);
    expect(await answer(await infoRefs(['x', readOnly]))).toEqual([403, null, 'You are not allowed to upload code.\n']);
    const writer = await createToken(owner.user, ['write_repository']);
    const ok = await infoRefs(['x', writer]);
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'application/x-git-receive-pack-advertisement']);
    expect(await ok.text()).toMatch(
      /^001f# service=git-receive-pack\n0000[0-9a-f]{4}0{40} capabilities\^\{\}\0report-status report-status-v2 delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 agent=\S+\n0000$/,
    );
  });
});
