// git's smart HTTP transport, driven by the real `git` (clone, fetch, pull, ls-remote, shallow and partial clones,
// protocol v2 and v0) against a served instance, and GitLab's answers to who may fetch what. Every clone passes
// `git fsck --strict` and shows what the API shows.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/lib/crypto.ts';
import { api, appFetch, serveTestApp } from '../helpers/app.ts';
import { registerRunner, requestJob } from '../helpers/ci-runner.ts';
import { ciProject } from '../api/pipelines/support.ts';
import { git, hasGit, runGit } from '../helpers/git-dir.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createToken, createUser } from '../factories/users.ts';

const GUEST = 10;
const REPORTER = 20;

describe.skipIf(!hasGit())('git over HTTP: upload-pack', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let project: Awaited<ReturnType<typeof createProject>>;
  let work: string;
  const url = (path: string, auth?: string) => `${server.url.replace('://', `://${auth ? `${auth}@` : ''}`)}/${path}.git`;
  const commit = async (branch: string, message: string, actions: unknown[]) => {
    const res = await api.post(`/projects/${project.id}/repository/commits`, { token: owner.token, body: { branch, commit_message: message, actions } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const clone = async (args: string[], source: string, name: string) => {
    const dir = join(work, name);
    await runGit(work, ['clone', '-q', ...args, source, dir], { env: { GIT_TERMINAL_PROMPT: '0' } });
    await runGit(dir, ['fsck', '--strict']);
    return dir;
  };

  beforeAll(async () => {
    server = await serveTestApp();
    owner = await createUser();
    project = await createProject(owner.token, { visibility: 'public' });
    work = await mkdtemp(join(tmpdir(), 'git-http-'));
    await commit('master', 'first', [
      { action: 'create', file_path: 'README.md', content: '# demo\n' },
      { action: 'create', file_path: 'src/a.txt', content: 'a\n' },
      { action: 'create', file_path: 'bin/data.bin', content: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' },
    ]);
    await commit('master', 'second', [{ action: 'update', file_path: 'src/a.txt', content: 'a, again\n' }]);
    const tag = await api.post(`/projects/${project.id}/repository/tags`, { token: owner.token, body: { tag_name: 'v1', ref: 'master', message: 'release' } });
    expect(tag.status).toBe(201);
  });
  afterAll(() => server.close());

  it('an anonymous clone of a public project (protocol v2): history, files and tags as the API has them', async () => {
    const dir = await clone([], url(project.path_with_namespace), 'v2');
    const commits = await api.get(`/projects/${project.id}/repository/commits`, { token: owner.token });
    expect((await git(dir, 'log', '--format=%H')).split('\n')).toEqual(commits.body.map((c: { id: string }) => c.id));
    expect(await readFile(join(dir, 'src/a.txt'), 'utf8')).toBe('a, again\n');
    expect([...(await readFile(join(dir, 'bin/data.bin')))]).toEqual([0, 1, 2, 255]);
    expect(await git(dir, 'tag')).toBe('v1');
    expect(await git(dir, 'cat-file', '-t', 'v1')).toBe('tag');
    expect(await git(dir, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('master');
  });

  it('protocol v0 clients clone and fetch too', async () => {
    const dir = await clone(['-c', 'protocol.version=0'], url(project.path_with_namespace), 'v0');
    expect(await git(dir, 'log', '--format=%s')).toBe('second\nfirst');
    const third = await commit('master', 'third (v0)', [{ action: 'create', file_path: 'c.txt', content: 'c\n' }]);
    await runGit(dir, ['-c', 'protocol.version=0', 'fetch', '-q']);
    expect(await git(dir, 'rev-parse', 'origin/master')).toBe(third);
    await runGit(dir, ['fsck', '--strict']);
  });

  it('fetch and pull --rebase after commits made through the API send only what is new', async () => {
    const dir = await clone([], url(project.path_with_namespace), 'fetch');
    const next = await commit('master', 'via the API', [{ action: 'create', file_path: 'd.txt', content: 'd\n' }]);
    await runGit(dir, ['fetch', '-q']);
    // The commit, its root tree and the new blob, nothing the clone had (a pack this small is unpacked loose).
    expect(await git(dir, 'count-objects', '-v')).toMatch(/^count: 3$/m);
    expect(await git(dir, 'rev-parse', 'origin/master')).toBe(next);
    await runGit(dir, ['pull', '-q', '--rebase']);
    expect(await readFile(join(dir, 'd.txt'), 'utf8')).toBe('d\n');
    await runGit(dir, ['fsck', '--strict']);
  });

  it('a shallow clone (--depth 1) has the tip alone; a partial clone (blob:none) fetches blobs on checkout', async () => {
    const shallow = await clone(['--depth', '1'], url(project.path_with_namespace), 'shallow');
    expect((await git(shallow, 'log', '--format=%H')).split('\n')).toHaveLength(1);
    expect(await git(shallow, 'rev-parse', '--is-shallow-repository')).toBe('true');
    const partial = await clone(['--filter=blob:none'], url(project.path_with_namespace), 'partial');
    expect(await readFile(join(partial, 'src/a.txt'), 'utf8')).toBe('a, again\n');
    // The first commit's blobs were never fetched: the clone knows them only by id until asked.
    const missing = await git(partial, 'rev-list', '--objects', '--all', '--missing=print');
    expect(missing).toMatch(/^\?[0-9a-f]{40}$/m);
  });

  it('--shallow-since and --shallow-exclude cut history by date and by ref (deepen-since, deepen-not; v2 and v0)', async () => {
    const dated = await createProject(owner.token);
    const source = join(work, 'dated');
    await runGit(work, ['init', '-q', '-b', 'master', source]);
    for (const year of [2020, 2021, 2022]) {
      await writeFile(join(source, 'year.txt'), `${year}\n`);
      await runGit(source, ['add', '-A']);
      const date = `${year}-01-01T00:00:00Z`;
      await runGit(source, ['commit', '-q', '-m', `${year}`], { env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
      if (year === 2020) await runGit(source, ['tag', 'first']);
    }
    const remote = url(dated.path_with_namespace, `x:${owner.token}`);
    await runGit(source, ['push', '-q', remote, 'master', 'first']);
    for (const version of ['2', '0']) {
      const since = await clone(['-c', `protocol.version=${version}`, '--shallow-since=2021-06-01'], remote, `since-v${version}`);
      expect(await git(since, 'log', '--format=%s')).toBe('2022');
      expect(await git(since, 'rev-parse', '--is-shallow-repository')).toBe('true');
      const exclude = await clone(['-c', `protocol.version=${version}`, '--shallow-exclude=first', '--single-branch'], remote, `exclude-v${version}`);
      expect(await git(exclude, 'log', '--format=%s')).toBe('2022\n2021');
    }
  });

  it('a shallow clone deepens: fetch --depth, --deepen (deepen-relative), --unshallow, with new commits too (v2 and v0)', async () => {
    const deep = await createProject(owner.token);
    const source = join(work, 'deep');
    await runGit(work, ['init', '-q', '-b', 'master', source]);
    const commits: string[] = [];
    for (let i = 1; i <= 6; i++) {
      await writeFile(join(source, 'n.txt'), `${i}\n`);
      await runGit(source, ['add', '-A']);
      await runGit(source, ['commit', '-q', '-m', `c${i}`]);
      commits.push(await git(source, 'rev-parse', 'HEAD'));
    }
    const remote = url(deep.path_with_namespace, `x:${owner.token}`);
    await runGit(source, ['push', '-q', remote, 'master']);
    const log = async (dir: string) => (await git(dir, 'log', '--format=%s', 'origin/master')).split('\n');
    for (const version of ['2', '0']) {
      const v = ['-c', `protocol.version=${version}`];
      const dir = await clone([...v, '--depth', '1'], remote, `deep-v${version}`);
      expect(await log(dir)).toEqual(['c6']);
      await runGit(dir, [...v, 'fetch', '-q', '--depth', '2']);
      expect(await log(dir)).toEqual(['c6', 'c5']);
      await runGit(dir, [...v, 'fetch', '-q', '--deepen', '2']);
      expect(await log(dir)).toEqual(['c6', 'c5', 'c4', 'c3']);
      await runGit(dir, ['fsck', '--strict']);
      await runGit(dir, [...v, 'fetch', '-q', '--unshallow']);
      expect(await log(dir)).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
      expect(await git(dir, 'rev-parse', '--is-shallow-repository')).toBe('false');
      await runGit(dir, ['fsck', '--strict']);
    }
    // New commits and a deepening in one fetch: the new ones whole, the old boundary deepened.
    const dir = await clone(['--depth', '2'], remote, 'deep-new');
    await writeFile(join(source, 'n.txt'), '7\n');
    await runGit(source, ['commit', '-q', '-am', 'c7']);
    await runGit(source, ['push', '-q', remote, 'master']);
    await runGit(dir, ['fetch', '-q', '--deepen', '1']);
    expect(await log(dir)).toEqual(['c7', 'c6', 'c5', 'c4']);
    await runGit(dir, ['fsck', '--strict']);
  });

  it('ls-remote lists HEAD, the branches and the tags with their peeled targets, as git itself would', async () => {
    const out = await git(work, 'ls-remote', url(project.path_with_namespace));
    const lines = out.split('\n').map((l) => l.split('\t')[1]);
    expect(lines).toEqual(['HEAD', 'refs/heads/master', 'refs/tags/v1', 'refs/tags/v1^{}']);
  });

  it('without .git, info/refs redirects to the .git path (301); other services and the dumb protocol are refused', async () => {
    const res = await fetch(`${server.url}/${project.path_with_namespace}/info/refs?service=git-upload-pack`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([301, `${url(project.path_with_namespace)}/info/refs?service=git-upload-pack`]);
    const dumb = await fetch(`${url(project.path_with_namespace)}/info/refs`);
    expect([dumb.status, await dumb.text()]).toEqual([403, "The command you're trying to execute is not allowed.\n"]);
    const head = await fetch(`${url(project.path_with_namespace)}/info/refs?service=git-upload-pack`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([403, '']);
    const post = await fetch(`${url(project.path_with_namespace)}/git-upload-pack`, { method: 'POST', body: '0000' });
    expect(post.status).toBe(415);
  });

  it("a want of an object the project cannot reach (another project's, through the shared pool) is not our ref", async () => {
    const fork = await api.post(`/projects/${project.id}/fork`, {
      token: owner.token,
      body: { name: `fork-${project.id}`, path: `fork-${project.id}`, visibility: 'private' },
    });
    expect(fork.status).toBe(201);
    const res = await api.post(`/projects/${fork.body.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'private', actions: [{ action: 'create', file_path: 'secret.txt', content: 'secret\n' }] },
    });
    expect(res.status).toBe(201);
    const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;
    const body = `${pkt('command=fetch\n')}0001${pkt(`want ${res.body.id}\n`)}${pkt('done\n')}0000`;
    const fetched = await fetch(`${url(project.path_with_namespace)}/git-upload-pack`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
      body,
    });
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(pkt(`ERR upload-pack: not our ref ${res.body.id}\n`));
  });
});

describe.skipIf(!hasGit())('git over HTTP: who may fetch (GitLab 13.6 answers)', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let project: Awaited<ReturnType<typeof createProject>>;
  const infoRefs = (path: string, auth?: [string, string]) =>
    fetch(`${server.url}/${path}.git/info/refs?service=git-upload-pack`, {
      headers: auth ? { authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` } : {},
    });
  const answer = async (res: Response) => [res.status, res.headers.get('www-authenticate'), await res.text()];
  const CHALLENGE = [401, 'Basic realm="GitLab"', 'HTTP Basic: Access denied\n'];

  beforeAll(async () => {
    server = await serveTestApp();
    owner = await createUser();
    project = await createProject(owner.token, { visibility: 'private' });
    const res = await api.post(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'init', actions: [{ action: 'create', file_path: 'a', content: 'a\n' }] },
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => server.close());

  it('anonymous: 401 with the Basic challenge, for a private project and for one that does not exist alike', async () => {
    expect(await answer(await infoRefs(project.path_with_namespace))).toEqual(CHALLENGE);
    expect(await answer(await infoRefs(`${project.path_with_namespace}-nope`))).toEqual(CHALLENGE);
  });

  it('wrong credentials: 401; a user who cannot read the project: 404 with GitLab words; a guest: 403', async () => {
    expect(await answer(await infoRefs(project.path_with_namespace, ['x', 'glpat-nonsense']))).toEqual(CHALLENGE);
    const stranger = await createUser();
    expect(await answer(await infoRefs(project.path_with_namespace, ['x', stranger.token]))).toEqual([
      404,
      null,
      'The project you were looking for could not be found.\n',
    ]);
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, GUEST);
    expect(await answer(await infoRefs(project.path_with_namespace, ['x', guest.token]))).toEqual([
      403,
      null,
      'You are not allowed to download code from this project.\n',
    ]);
  });

  it('tokens by scope: read_repository and write_repository fetch, read_user does not; OAuth needs the oauth2 login', async () => {
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, REPORTER);
    for (const scope of ['read_repository', 'write_repository', 'read_api', 'api']) {
      const token = await createToken(reporter.user, [scope]);
      expect((await infoRefs(project.path_with_namespace, ['anything', token])).status).toBe(200);
    }
    const readUser = await createToken(reporter.user, ['read_user']);
    expect(await answer(await infoRefs(project.path_with_namespace, ['x', readUser]))).toEqual([403, null, 'You are not allowed to download code.\n']);
    // A personal access token is not an OAuth token: with the oauth2 login it matches nothing.
    expect(await answer(await infoRefs(project.path_with_namespace, ['oauth2', reporter.token]))).toEqual(CHALLENGE);
  });

  it('a running job clones with its token (login gitlab-ci-token), as a runner does; once the job ends the token is refused', async () => {
    const ci = await ciProject('build:\n  script: [echo hi]\n');
    const runnersToken = (await api.get(`/projects/${ci.project.id}`, { token: ci.owner.token })).body.runners_token as string;
    const runner = await registerRunner(appFetch, runnersToken);
    const job = await requestJob(appFetch, runner);
    expect(job).not.toBeNull();
    const path = ci.project.path_with_namespace as string;
    expect((await infoRefs(path, ['gitlab-ci-token', job!.token])).status).toBe(200);
    // The project's http_url_to_repo with the job's credentials, as gitlab-runner clones.
    const work = await mkdtemp(join(tmpdir(), 'git-http-job-'));
    await runGit(work, ['clone', '-q', `${server.url.replace('://', `://gitlab-ci-token:${job!.token}@`)}/${path}.git`, 'c'], {
      env: { GIT_TERMINAL_PROMPT: '0' },
    });
    expect(await git(join(work, 'c'), 'rev-parse', 'HEAD')).toBe(ci.sha);
    const done = await appFetch(`${server.url}/api/v4/jobs/${job!.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: job!.token, state: 'success' }),
    });
    expect(done.status).toBe(200);
    expect(await answer(await infoRefs(path, ['gitlab-ci-token', job!.token]))).toEqual(CHALLENGE);
  });

  it("the user's password clones; a wrong one is 401 like any wrong credential", async () => {
    const member = await createUser({ passwordHash: await hashPassword('correct horse battery') });
    await addMember(owner.token, 'projects', project.id, member.user.id, REPORTER);
    expect((await infoRefs(project.path_with_namespace, [member.user.username, 'correct horse battery'])).status).toBe(200);
    expect(await answer(await infoRefs(project.path_with_namespace, [member.user.username, 'wrong']))).toEqual(CHALLENGE);
    const work = await mkdtemp(join(tmpdir(), 'git-http-auth-'));
    const auth = `${member.user.username}:${encodeURIComponent('correct horse battery')}`;
    await runGit(work, ['clone', '-q', `${server.url.replace('://', `://${auth}@`)}/${project.path_with_namespace}.git`, 'c'], {
      env: { GIT_TERMINAL_PROMPT: '0' },
    });
    await runGit(join(work, 'c'), ['fsck', '--strict']);
    expect(await readFile(join(work, 'c', 'a'), 'utf8')).toBe('a\n');
  });
});
