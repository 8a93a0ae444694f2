// The project and group settings this service acts on, acted on: the issues and jobs features and public_jobs
// (REST, GraphQL and the listings), ci_config_path, build_timeout and ci_default_git_depth (the runner's payload),
// shared_runners_enabled (the runner queue), emails_disabled (notifications), squash_option (merging), and who may
// create projects and subgroups in a group. printing_merge_request_link_enabled is proven with git itself
// (tests/repositories/git-push.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, appFetch, testEnv } from '../../helpers/app.ts';
import { registerRunner, requestJob, runJob, type Fetch } from '../../helpers/ci-runner.ts';
import { gql } from '../../graphql/helpers.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { commitFiles } from '../pipelines/support.ts';
import { about, deliveredEvents, keepMail } from '../notifications/support.ts';
import { mrProject, mrs, openMergeRequest, repo } from '../merge-requests/support.ts';
import { instanceRunnersToken } from '../../../functions/runners/registration-token.ts';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const fetch: Fetch = (input, init) => appFetch(input, init);
const workDir = mkdtempSync(join(tmpdir(), 'settings-runner-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
keepMail();

const set = async (token: string, id: number, body: Record<string, unknown>) => {
  const res = await api.put(`/projects/${id}`, { token, body });
  expect(res.status, res.text).toBe(200);
};

describe('issues_access_level', () => {
  it('disabled: listings are empty (REST and GraphQL), an issue is 404, creating one 403; for administrators too', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const issue = await createIssue(owner.token, p.id, { title: 'Visible until disabled' });
    await set(owner.token, p.id, { issues_access_level: 'disabled' });
    const admin = await createAdmin();
    for (const token of [owner.token, admin.token, undefined]) {
      const list = await api.get(`/projects/${p.id}/issues`, { token });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      expect(list.headers.get('x-total')).toBe('0');
      expect((await api.get(`/projects/${p.id}/issues/${issue.iid}`, { token })).status).toBe(404);
    }
    expect((await api.get('/issues', { token: owner.token, query: { scope: 'all', search: 'Visible until disabled' } })).body).toEqual([]);
    const created = await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'x' } });
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ message: '403 Forbidden' });
    const graph = await gql(`{ project(fullPath: "${p.path_with_namespace}") { issuesEnabled issues { nodes { iid } } } }`, { token: owner.token });
    expect(graph.body).toEqual({ data: { project: { issuesEnabled: false, issues: { nodes: [] } } } });
    // Enabled again, everything is back.
    await set(owner.token, p.id, { issues_enabled: true });
    expect((await api.get(`/projects/${p.id}/issues`, { token: owner.token })).body.map((i: { iid: number }) => i.iid)).toEqual([issue.iid]);
  });

  it('private: members (guests up) and administrators see and open issues; other readers of a public project do not', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const issue = await createIssue(owner.token, p.id, { title: 'Members only' });
    await set(owner.token, p.id, { issues_access_level: 'private' });
    const guest = await createUser();
    await addMember(owner.token, 'projects', p.id, guest.user.id, GUEST);
    const stranger = await createUser();
    expect((await api.get(`/projects/${p.id}/issues/${issue.iid}`, { token: guest.token })).status).toBe(200);
    expect((await api.get(`/projects/${p.id}/issues/${issue.iid}`, { token: (await createAdmin()).token })).status).toBe(200);
    expect((await api.get(`/projects/${p.id}/issues/${issue.iid}`, { token: stranger.token })).status).toBe(404);
    expect((await api.get(`/projects/${p.id}/issues`, { token: stranger.token })).body).toEqual([]);
    expect((await api.post(`/projects/${p.id}/issues`, { token: stranger.token, body: { title: 'x' } })).status).toBe(403);
    expect((await api.post(`/projects/${p.id}/issues`, { token: guest.token, body: { title: 'x' } })).status).toBe(201);
    // The entity's issues_enabled is the caller's (Project#feature_available?).
    expect((await api.get(`/projects/${p.id}`, { token: guest.token })).body.issues_enabled).toBe(true);
    expect((await api.get(`/projects/${p.id}`, { token: stranger.token })).body.issues_enabled).toBe(false);
  });
});

describe('builds_access_level, public_jobs, ci_config_path, build_timeout, ci_default_git_depth, shared_runners_enabled', () => {
  const YAML = 'job:\n  script: [echo from-the-configured-path]\n';

  it('pipelines read ci_config_path; jobs carry the project timeout, git depth and CI_CONFIG_PATH', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    await set(owner.token, p.id, { ci_config_path: 'ci/pipeline.yml', build_timeout: 900, ci_default_git_depth: 5 });
    // The file at the configured path makes the push's pipeline; a root .gitlab-ci.yml is not read.
    await commitFiles(owner.token, p.id, { 'ci/pipeline.yml': YAML, '.gitlab-ci.yml': 'ignored:\n  script: [exit 1]\n' });
    const created = await api.post(`/projects/${p.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect(created.status, created.text).toBe(201);
    const jobs = (await api.get(`/projects/${p.id}/pipelines/${created.body.id}/jobs`, { token: owner.token })).body as { name: string }[];
    expect(jobs.map((j) => j.name)).toEqual(['job']);
    const token = (await api.get(`/projects/${p.id}`, { token: owner.token })).body.runners_token as string;
    const runner = await registerRunner(fetch, token);
    const job = (await requestJob(fetch, runner))!;
    expect(job.runner_info.timeout).toBe(900);
    expect(job.git_info.depth).toBe(5);
    expect(job.variables).toContainEqual({ key: 'CI_CONFIG_PATH', value: 'ci/pipeline.yml', public: true, masked: false });
    expect((await runJob(fetch, job, { workDir })).status).toBe('success');
    // A path with nothing there: no configuration.
    await set(owner.token, p.id, { ci_config_path: 'nowhere.yml' });
    const missing = await api.post(`/projects/${p.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: { base: ['Missing CI config file'] } });
  });

  it('builds disabled: no pipelines for anyone; public_jobs off: jobs and traces for reporters and above only', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    await commitFiles(owner.token, p.id, { '.gitlab-ci.yml': YAML });
    const pipeline = (await api.post(`/projects/${p.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).body as { id: number };
    const [job] = (await api.get(`/projects/${p.id}/pipelines/${pipeline.id}/jobs`, { token: owner.token })).body as { id: number }[];
    const stranger = await createUser();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', p.id, reporter.user.id, REPORTER);
    expect((await api.get(`/projects/${p.id}/jobs/${job!.id}`, { token: stranger.token })).status).toBe(200);
    await set(owner.token, p.id, { public_jobs: false });
    expect((await api.get(`/projects/${p.id}/pipelines`, { token: stranger.token })).status).toBe(200);
    expect((await api.get(`/projects/${p.id}/jobs/${job!.id}`, { token: stranger.token })).status).toBe(403);
    expect((await api.get(`/projects/${p.id}/jobs/${job!.id}/trace`, { token: stranger.token })).status).toBe(403);
    expect((await api.get(`/projects/${p.id}/jobs/${job!.id}`, { token: reporter.token })).status).toBe(200);
    await set(owner.token, p.id, { builds_access_level: 'disabled' });
    for (const token of [owner.token, stranger.token]) {
      const res = await api.get(`/projects/${p.id}/pipelines`, { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    expect((await api.post(`/projects/${p.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).status).toBe(403);
    expect((await api.get(`/projects/${p.id}`, { token: owner.token })).body.jobs_enabled).toBe(false);
  });

  it('shared_runners_enabled off: an instance runner takes none of the project’s jobs; on again, it does', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    await set(owner.token, p.id, { shared_runners_enabled: false });
    // A tag of this test's own, so that the instance runner takes no other test's jobs.
    const tag = unique('tag');
    await commitFiles(owner.token, p.id, { '.gitlab-ci.yml': `job:\n  tags: [${tag}]\n  script: [echo shared]\n` });
    expect((await api.post(`/projects/${p.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).status).toBe(201);
    const shared = await registerRunner(fetch, (await instanceRunnersToken(testEnv.ENCRYPTION_KEY))!, { tagList: [tag] });
    expect(await requestJob(fetch, shared)).toBeNull();
    await set(owner.token, p.id, { shared_runners_enabled: true });
    expect((await requestJob(fetch, shared))?.job_info.project_id).toBe(p.id);
  });
});

describe('emails_disabled', () => {
  it('on the project or a group above it, nobody is told', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: group.id });
    const p = await createProject(owner.token, { namespaceId: sub.id });
    const assignee = await createUser();
    await addMember(owner.token, 'projects', p.id, assignee.user.id, DEVELOPER);
    const told = async () => {
      const issue = await createIssue(owner.token, p.id, { title: unique('mail'), assignee_ids: [assignee.user.id] });
      const [event] = await deliveredEvents(about('Issue', issue.id));
      return event!.recipients!.map((r) => r.user_id);
    };
    expect(await told()).toEqual([assignee.user.id]);
    expect((await api.put(`/groups/${group.id}`, { token: owner.token, body: { emails_disabled: true } })).status).toBe(200);
    expect(await told()).toEqual([]);
    expect((await api.put(`/groups/${group.id}`, { token: owner.token, body: { emails_disabled: false } })).status).toBe(200);
    await set(owner.token, p.id, { emails_disabled: true });
    expect(await told()).toEqual([]);
  });
});

describe('squash_option', () => {
  it('always squashes whatever the merge asks; never does not', async () => {
    /** The merged-in parent of the merge commit: the squash commit, or the source's own head. */
    const mergedParent = async (fx: Awaited<ReturnType<typeof mrProject>>, sha: string) => {
      const c = (await api.get(`${repo(fx)}/commits/${sha}`, { token: fx.owner.token })).body as { parent_ids: string[] };
      return (await api.get(`${repo(fx)}/commits/${c.parent_ids[1]}`, { token: fx.owner.token })).body as { id: string; message: string };
    };
    const fx = await mrProject();
    await set(fx.owner.token, fx.project.id, { squash_option: 'always' });
    const mr = await openMergeRequest(fx, { title: 'Squashed by the project' });
    const merged = await api.put(`${mrs(fx)}/${mr.iid}/merge`, { token: fx.owner.token, body: { squash: false, squash_commit_message: 'One commit' } });
    expect(merged.status, merged.text).toBe(200);
    expect((await mergedParent(fx, merged.body.merge_commit_sha)).message).toBe('One commit\n');

    const never = await mrProject();
    await set(never.owner.token, never.project.id, { squash_option: 'never' });
    const other = await openMergeRequest(never, { title: 'Not squashed', squash: true });
    const plain = await api.put(`${mrs(never)}/${other.iid}/merge`, { token: never.owner.token, body: { squash: true, squash_commit_message: 'ignored' } });
    expect(plain.status, plain.text).toBe(200);
    expect((await mergedParent(never, plain.body.merge_commit_sha)).id).toBe(never.change.id);
  });

  it('default_on: a new merge request squashes unless it says otherwise', async () => {
    const fx = await mrProject();
    await set(fx.owner.token, fx.project.id, { squash_option: 'default_on' });
    expect((await openMergeRequest(fx, { title: 'Default' })).squash).toBe(true);
  });
});

describe('project_creation_level and subgroup_creation_level', () => {
  it('noone: nobody creates projects in the group, administrators included; developer and maintainer as named', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const developer = await createUser();
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, developer.user.id, DEVELOPER);
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, MAINTAINER);
    const create = (token: string) => api.post('/projects', { token, body: { name: unique('p'), namespace_id: group.id } });
    expect((await create(developer.token)).status).toBe(201);
    expect((await api.put(`/groups/${group.id}`, { token: owner.token, body: { project_creation_level: 'maintainer' } })).body.project_creation_level).toBe(
      'maintainer',
    );
    const refused = await create(developer.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { namespace: ['is not valid'] } });
    expect((await create(maintainer.token)).status).toBe(201);
    await api.put(`/groups/${group.id}`, { token: owner.token, body: { project_creation_level: 'noone' } });
    for (const token of [owner.token, (await createAdmin()).token]) expect((await create(token)).status).toBe(400);
  });

  it('subgroups: maintainers by default; owners only when subgroup_creation_level is owner', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, MAINTAINER);
    const sub = (token: string) => api.post('/groups', { token, body: { name: unique('sub'), path: unique('sub'), parent_id: group.id } });
    expect((await sub(maintainer.token)).status).toBe(201);
    await api.put(`/groups/${group.id}`, { token: owner.token, body: { subgroup_creation_level: 'owner' } });
    expect((await sub(maintainer.token)).status).toBe(403);
    expect((await sub(owner.token)).status).toBe(201);
  });
});
