// Commit statuses (GitLab 13.6 lib/api/commit_statuses.rb): external systems post GenericCommitStatus jobs of the
// `external` stage, continuing their open status of a name; the commit's statuses (CI jobs included) are listed.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject, commitFiles } from '../pipelines/support.ts';
import { ISO, userBasic } from '../triggers/support.ts';

const KEYS = [
  'id',
  'sha',
  'ref',
  'status',
  'name',
  'target_url',
  'description',
  'created_at',
  'started_at',
  'finished_at',
  'allow_failure',
  'coverage',
  'author',
];

/** A project whose commit has no pipeline (no .gitlab-ci.yml), its developer and its reporter. */
async function statusFixture(yaml: string | null = null) {
  const base = await ciProject(yaml);
  const [developer, reporter, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  await addMember(base.owner.token, 'projects', base.project.id, developer.user.id, 30);
  await addMember(base.owner.token, 'projects', base.project.id, reporter.user.id, 20);
  return { ...base, developer, reporter, stranger };
}

type Fixture = Awaited<ReturnType<typeof statusFixture>>;
const post = (fx: Fixture, body: Record<string, unknown>, token = fx.developer.token, sha = fx.sha) =>
  api.post(`/projects/${fx.project.id}/statuses/${sha}`, { token, body });
const list = (fx: Fixture, query: Record<string, string> = {}, token = fx.developer.token) =>
  api.get(`/projects/${fx.project.id}/repository/commits/${fx.sha}/statuses`, { token, query });

async function pipelinesOf(fx: Fixture) {
  const res = await api.get(`/projects/${fx.project.id}/pipelines`, { token: fx.owner.token });
  return res.body as Array<{ id: number; status: string; ref: string }>;
}

describe('POST /projects/:id/statuses/:sha', () => {
  it('makes an external pipeline for a commit without one, on the first branch holding it', async () => {
    const fx = await statusFixture();
    const res = await post(fx, { state: 'pending' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      sha: fx.sha,
      ref: 'master',
      status: 'pending',
      name: 'default',
      target_url: null,
      description: null,
      created_at: ISO,
      started_at: null,
      finished_at: null,
      allow_failure: false,
      coverage: null,
      author: userBasic(fx.developer.user),
    });
    const pipelines = await pipelinesOf(fx);
    expect(pipelines.map((p) => [p.ref, p.status])).toEqual([['master', 'pending']]);
    const jobs = await api.get(`/projects/${fx.project.id}/pipelines/${pipelines[0]!.id}/jobs`, { token: fx.owner.token });
    // GenericCommitStatus rows are not jobs.
    expect(jobs.body).toEqual([]);
  });

  it('continues the open status of the same name: running, then success; the pipeline follows', async () => {
    const fx = await statusFixture();
    const running = await post(fx, { state: 'running', context: 'ci/lint', target_url: 'https://ci.example.com/1', description: 'linting', coverage: '56.5' });
    expect(running.status).toBe(201);
    expect(running.body).toMatchObject({
      status: 'running',
      name: 'ci/lint',
      target_url: 'https://ci.example.com/1',
      description: 'linting',
      coverage: 56.5,
      started_at: ISO,
      finished_at: null,
    });
    expect((await pipelinesOf(fx)).map((p) => p.status)).toEqual(['running']);
    const done = await post(fx, { state: 'success', name: 'ci/lint', description: '' });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({
      id: running.body.id,
      status: 'success',
      description: 'linting',
      target_url: 'https://ci.example.com/1',
      started_at: running.body.started_at,
      finished_at: ISO,
    });
    expect((await pipelinesOf(fx)).map((p) => p.status)).toEqual(['success']);
    // Finished: the next post of the name is a new status, and the old one is retried.
    const again = await post(fx, { state: 'failed', name: 'ci/lint' });
    expect([again.status, again.body.status]).toEqual([201, 'failed']);
    expect(again.body.id).not.toBe(running.body.id);
    expect((await pipelinesOf(fx)).map((p) => p.status)).toEqual(['failed']);
    expect((await list(fx)).body.map((s: { id: number }) => s.id)).toEqual([again.body.id]);
    expect((await list(fx, { all: 'true' })).body.map((s: { id: number }) => s.id)).toEqual([running.body.id, again.body.id]);
  });

  it.each([
    ['pending', 'pending', 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")'],
    ['running', 'pending', 'Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")'],
    ['running', 'running', 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")'],
  ])('refuses %s -> %s with the state machine message and changes nothing', async (first, second, message) => {
    const fx = await statusFixture();
    const created = await post(fx, { state: first });
    const res = await post(fx, { state: second, description: 'changed' });
    expect([res.status, res.body]).toEqual([400, { message }]);
    expect((await list(fx)).body).toEqual([created.body]);
  });

  it('attaches to the newest pipeline of the commit, beside its jobs, and lists them all in id order', async () => {
    const fx = await statusFixture('build:\n  script: [make]\n');
    const [pipeline] = await pipelinesOf(fx);
    const res = await post(fx, { state: 'success', name: 'review' });
    expect(res.status).toBe(201);
    expect((await pipelinesOf(fx)).map((p) => p.id)).toEqual([pipeline!.id]);
    const all = await list(fx);
    expect(all.status).toBe(200);
    expect(all.body.map((s: { name: string; status: string; ref: string }) => [s.name, s.status, s.ref])).toEqual([
      ['build', 'pending', 'master'],
      ['review', 'success', 'master'],
    ]);
    expect((await list(fx, { stage: 'external' })).body.map((s: { name: string }) => s.name)).toEqual(['review']);
    expect((await list(fx, { name: 'build' })).body.map((s: { name: string }) => s.name)).toEqual(['build']);
    expect((await list(fx, { ref: 'other' })).body).toEqual([]);
    const page = await list(fx, { per_page: '1', page: '2' });
    expect(page.body.map((s: { name: string }) => s.name)).toEqual(['review']);
    expect(['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'].map((h) => page.headers.get(h))).toEqual([
      '2',
      '2',
      '2',
      '1',
      '',
      '1',
    ]);
    // A job's name is not free for a status (GenericCommitStatus#name_uniqueness_across_types).
    const taken = await post(fx, { state: 'success', name: 'build' });
    expect([taken.status, taken.body]).toEqual([400, { message: { name: ['has already been taken'] } }]);
  });

  it('makes a new pipeline when the ref or pipeline_id matches none', async () => {
    const fx = await statusFixture();
    await post(fx, { state: 'success' });
    const other = await post(fx, { state: 'success', ref: 'elsewhere' });
    expect([other.status, other.body.ref]).toEqual([201, 'elsewhere']);
    expect((await pipelinesOf(fx)).map((p) => p.ref)).toEqual(['elsewhere', 'master']);
  });

  it('refuses a commit no branch holds without a ref', async () => {
    const fx = await statusFixture();
    const feature = await commitFiles(fx.owner.token, fx.project.id, { 'f.txt': 'x' }, 'feature');
    expect((await api.delete(`/projects/${fx.project.id}/repository/branches/feature`, { token: fx.owner.token })).status).toBe(204);
    const res = await post(fx, { state: 'success' }, fx.developer.token, feature.id);
    expect([res.status, res.body]).toEqual([404, { message: '404 References for commit Not Found' }]);
    expect(await pipelinesOf(fx)).toEqual([]);
  });

  it.each([
    [{}, 400, { error: 'state is missing, state does not have a valid value' }],
    [{ state: 'done' }, 400, { error: 'state does not have a valid value' }],
    [{ state: 'success', coverage: 'lots' }, 400, { error: 'coverage is invalid' }],
    [{ state: 'success', target_url: 'ftp://example.com' }, 400, { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ state: 'success', target_url: `https://example.com/${'x'.repeat(250)}` }, 400, { message: { target_url: ['is too long (maximum is 255 characters)'] } }],
    [{ state: 'success', name: '' }, 400, { message: { name: ["can't be blank"] } }],
  ])('refuses %j and stores nothing', async (body, status, answer) => {
    const fx = await statusFixture();
    const res = await post(fx, body);
    expect([res.status, res.body]).toEqual([status, answer]);
    expect(await pipelinesOf(fx)).toEqual([]);
  });

  it('answers 404 Commit Not Found for an unknown commit', async () => {
    const fx = await statusFixture();
    const res = await post(fx, { state: 'success' }, fx.developer.token, 'f'.repeat(40));
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    const read = await api.get(`/projects/${fx.project.id}/repository/commits/${'f'.repeat(40)}/statuses`, { token: fx.developer.token });
    expect([read.status, read.body]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('two racing posts of one name make one pipeline and one running status', async () => {
    const fx = await statusFixture();
    const answers = await Promise.all([post(fx, { state: 'running', name: 'race' }), post(fx, { state: 'running', name: 'race' })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(answers.find((r) => r.status === 400)!.body).toEqual({
      message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")',
    });
    expect((await pipelinesOf(fx)).map((p) => p.status)).toEqual(['running']);
    const statuses = await list(fx, { all: 'true' });
    expect(statuses.body.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([['race', 'running']]);
  });
});

describe('authorization', () => {
  it('anonymous 401, stranger 404, reporter 403 on writes (nothing stored) and 200 on reads', async () => {
    const fx = await statusFixture();
    const anonymousPost = await api.post(`/projects/${fx.project.id}/statuses/${fx.sha}`, { body: { state: 'success' } });
    expect([anonymousPost.status, anonymousPost.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const anonymousRead = await api.get(`/projects/${fx.project.id}/repository/commits/${fx.sha}/statuses`);
    expect([anonymousRead.status, anonymousRead.body]).toEqual([401, { message: '401 Unauthorized' }]);
    for (const res of [await post(fx, { state: 'success' }, fx.stranger.token), await list(fx, {}, fx.stranger.token)]) {
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
    }
    const reporterPost = await post(fx, { state: 'success' }, fx.reporter.token);
    expect([reporterPost.status, reporterPost.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(await pipelinesOf(fx)).toEqual([]);
    await post(fx, { state: 'success' });
    const reporterRead = await list(fx, {}, fx.reporter.token);
    expect([reporterRead.status, reporterRead.body.length]).toEqual([200, 1]);
  });
});
