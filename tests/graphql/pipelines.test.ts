// GraphQL over pipelines (GitLab 13.6): Project.pipeline(iid) and Project.pipelines, a pipeline's fields, its stages
// (legacy stages of its latest jobs), their groups (Ci::Group: parallel suffixes stripped), jobs with needs and
// artifacts; Commit.pipelines / latestPipeline and MergeRequest.pipelines / headPipeline; who may see them.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createUser } from '../factories/users.ts';
import { api } from '../helpers/app.ts';
import { ciProject, commitFiles } from '../api/pipelines/support.ts';
import { gql } from './helpers.ts';

const FIELDS = `
  id iid sha beforeSha status active cancelable retryable coverage duration configSource path
  detailedStatus { group icon favicon detailsPath hasDetails label text tooltip action { title } }
  project { fullPath } user { username } upstream { id } downstream { count nodes { id } } sourceJob { name }
  userPermissions { adminPipeline destroyPipeline updatePipeline } jobs { nodes { name } }`;
const TREE = `
  stages(first: 5) { nodes { name detailedStatus { group icon detailsPath hasDetails label text tooltip }
    groups(first: 5) { nodes { name size detailedStatus { group label detailsPath hasDetails }
      jobs(first: 5) { nodes { name scheduledAt detailedStatus { group icon detailsPath hasDetails label text tooltip }
        pipeline { iid } needs(first: 5) { nodes { name } } artifacts(first: 5) { nodes { fileType downloadPath } } } } } } } }`;

const pipelineQuery = (selection: string) => `query($path: ID!, $iid: ID!) { project(fullPath: $path) { pipeline(iid: $iid) { ${selection} } } }`;

async function jobIds(token: string, projectId: number, pipelineId: number): Promise<Record<string, number>> {
  const res = await api.get(`/projects/${projectId}/pipelines/${pipelineId}/jobs`, { token, query: { per_page: 100 } });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as Array<{ name: string; id: number }>).map((j) => [j.name, j.id]));
}

async function onlyPipeline(token: string, projectId: number) {
  const list = await api.get(`/projects/${projectId}/pipelines`, { token });
  expect(list.body).toHaveLength(1);
  return list.body[0] as { id: number; sha: string };
}

describe('Project.pipeline', () => {
  it('shows the push pipeline of CI_YAML with its fields, exactly', async () => {
    const { owner, project, sha } = await ciProject();
    const p = await onlyPipeline(owner.token, project.id);
    const path = project.path_with_namespace;
    const res = await gql(pipelineQuery(FIELDS), { token: owner.token, variables: { path, iid: '1' } });
    expect(res.body).toEqual({
      data: {
        project: {
          pipeline: {
            id: `gid://gitlab/Ci::Pipeline/${p.id}`,
            iid: '1',
            sha,
            beforeSha: '0000000000000000000000000000000000000000',
            status: 'PENDING',
            active: true,
            cancelable: true,
            retryable: false,
            coverage: null,
            duration: null,
            configSource: 'REPOSITORY_SOURCE',
            path: `/${path}/-/pipelines/${p.id}`,
            detailedStatus: {
              group: 'pending',
              icon: 'status_pending',
              favicon: 'favicon_status_pending',
              detailsPath: `/${path}/-/pipelines/${p.id}`,
              hasDetails: true,
              label: 'pending',
              text: 'pending',
              tooltip: 'pending',
              action: null,
            },
            project: { fullPath: path },
            user: { username: owner.user.username },
            upstream: null,
            downstream: { count: 0, nodes: [] },
            sourceJob: null,
            userPermissions: { adminPipeline: true, destroyPipeline: true, updatePipeline: true },
            jobs: { nodes: [{ name: 'build' }, { name: 'lint' }, { name: 'rspec' }, { name: 'deploy' }] },
          },
        },
      },
    });
  });

  it('shows its stages, groups, jobs and needs, exactly', async () => {
    const { owner, project } = await ciProject();
    const p = await onlyPipeline(owner.token, project.id);
    const ids = await jobIds(owner.token, project.id, p.id);
    const path = project.path_with_namespace;
    const res = await gql(pipelineQuery(TREE), { token: owner.token, variables: { path, iid: '1' } });
    const status = (s: string, detailsPath: string) => ({ group: s, icon: `status_${s}`, detailsPath, hasDetails: true, label: s, text: s, tooltip: s });
    const job = (name: string, s: string, needs: string[] = []) => ({
      name,
      scheduledAt: null,
      detailedStatus: status(s, `/${path}/-/jobs/${ids[name]}`),
      pipeline: { iid: '1' },
      needs: { nodes: needs.map((n) => ({ name: n })) },
      artifacts: { nodes: [] },
    });
    // A group of one job shows that job's status (Ci::Group#detailed_status).
    const group = (name: string, s: string) => ({
      name,
      size: 1,
      detailedStatus: { group: s, label: s, detailsPath: `/${path}/-/jobs/${ids[name]}`, hasDetails: true },
    });
    const stage = (name: string, s: string, groups: unknown[]) => ({
      name,
      detailedStatus: status(s, `/${path}/-/pipelines/${p.id}#${name}`),
      groups: { nodes: groups },
    });
    expect(res.body).toEqual({
      data: {
        project: {
          pipeline: {
            stages: {
              nodes: [
                stage('build', 'pending', [{ ...group('build', 'pending'), jobs: { nodes: [job('build', 'pending')] } }]),
                stage('test', 'created', [
                  { ...group('lint', 'created'), jobs: { nodes: [job('lint', 'created')] } },
                  { ...group('rspec', 'created'), jobs: { nodes: [job('rspec', 'created', ['build'])] } },
                ]),
                stage('deploy', 'created', [{ ...group('deploy', 'created'), jobs: { nodes: [job('deploy', 'created')] } }]),
              ],
            },
          },
        },
      },
    });
  });

  it('groups parallel jobs under their name without the `i/N` suffix, in natural order', async () => {
    const { owner, project } = await ciProject('test:\n  script: [x]\n  parallel: 10\nlint:\n  script: [x]\n');
    const res = await gql(
      pipelineQuery(
        `stages { nodes { name groups { nodes { name size detailedStatus { group label detailsPath hasDetails } jobs(first: 10) { nodes { name } } } } } }`,
      ),
      { token: owner.token, variables: { path: project.path_with_namespace, iid: '1' } },
    );
    const names = Array.from({ length: 10 }, (_, i) => ({ name: `test ${i + 1}/10` }));
    expect(res.body.data.project.pipeline.stages.nodes).toEqual([
      {
        name: 'test',
        groups: {
          nodes: [
            {
              name: 'lint',
              size: 1,
              detailedStatus: { group: 'pending', label: 'pending', detailsPath: expect.stringMatching(/\/-\/jobs\/\d+$/), hasDetails: true },
              jobs: { nodes: [{ name: 'lint' }] },
            },
            // A group of several jobs: the composite of its jobs, no page of its own (Group::Common).
            { name: 'test', size: 10, detailedStatus: { group: 'pending', label: 'pending', detailsPath: null, hasDetails: false }, jobs: { nodes: names } },
          ],
        },
      },
    ]);
  });

  it('is null for an unknown or non-numeric iid', async () => {
    const { owner, project } = await ciProject();
    for (const iid of ['2', 'abc', '99999999999']) {
      const res = await gql(pipelineQuery('iid'), { token: owner.token, variables: { path: project.path_with_namespace, iid } });
      expect(res.body).toEqual({ data: { project: { pipeline: null } } });
    }
  });
});

describe('Project.pipelines', () => {
  it('lists newest first with status, ref and sha filters and a count', async () => {
    const { owner, project, sha } = await ciProject();
    expect((await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).status).toBe(201);
    const second = await onlyLatest(owner.token, project.id);
    expect((await api.post(`/projects/${project.id}/pipelines/${second}/cancel`, { token: owner.token })).status).toBe(200);
    const list = (args: string) =>
      gql(`query($path: ID!) { project(fullPath: $path) { pipelines${args} { count nodes { iid status } pageInfo { hasNextPage } } } }`, {
        token: owner.token,
        variables: { path: project.path_with_namespace },
      }).then((r) => r.body.data.project.pipelines);
    expect(await list('')).toEqual({
      count: 2,
      nodes: [
        { iid: '2', status: 'CANCELED' },
        { iid: '1', status: 'PENDING' },
      ],
      pageInfo: { hasNextPage: false },
    });
    expect(await list('(first: 1)')).toEqual({ count: 2, nodes: [{ iid: '2', status: 'CANCELED' }], pageInfo: { hasNextPage: true } });
    expect(await list('(status: PENDING)')).toEqual({ count: 1, nodes: [{ iid: '1', status: 'PENDING' }], pageInfo: { hasNextPage: false } });
    expect(await list(`(ref: "master", sha: "${sha}")`)).toMatchObject({ count: 2 });
    expect(await list('(ref: "other")')).toEqual({ count: 0, nodes: [], pageInfo: { hasNextPage: false } });
  });
});

async function onlyLatest(token: string, projectId: number): Promise<number> {
  const list = await api.get(`/projects/${projectId}/pipelines`, { token, query: { per_page: 1 } });
  return (list.body as Array<{ id: number }>)[0]!.id;
}

describe('Commit.pipelines and latestPipeline', () => {
  it('lists the commit pipelines newest first, filtered by ref, sha and status', async () => {
    const { owner, project, sha } = await ciProject();
    expect((await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).status).toBe(201);
    expect((await api.post(`/projects/${project.id}/pipelines/${await onlyLatest(owner.token, project.id)}/cancel`, { token: owner.token })).status).toBe(200);
    // A branch made at the same commit: a push pipeline for it, on the same sha.
    expect((await api.post(`/projects/${project.id}/repository/branches`, { token: owner.token, body: { branch: 'feature', ref: 'master' } })).status).toBe(
      201,
    );
    // A later commit on master: its pipeline is not the first commit's.
    await commitFiles(owner.token, project.id, { 'other.txt': 'x' });
    const commit = (args: string) =>
      gql(
        `query($path: ID!, $sha: String!) { project(fullPath: $path) { repository { tree(ref: $sha) { lastCommit {
          sha pipelines${args} { count nodes { iid status sha } }
          latest: latestPipeline${args} { iid } } } } } }`,
        { token: owner.token, variables: { path: project.path_with_namespace, sha } },
      ).then((r) => {
        expect(r.body.errors).toBeUndefined();
        return r.body.data.project.repository.tree.lastCommit;
      });
    // (13.6's Pipeline has no `ref` field: 3 is the feature branch's, 1 and 2 master's.)
    const p = (iid: string, _ref: 'master' | 'feature', status: string) => ({ iid, status, sha });
    expect(await commit('')).toEqual({
      sha,
      pipelines: { count: 3, nodes: [p('3', 'feature', 'PENDING'), p('2', 'master', 'CANCELED'), p('1', 'master', 'PENDING')] },
      latest: { iid: '3' },
    });
    expect(await commit('(ref: "master")')).toEqual({
      sha,
      pipelines: { count: 2, nodes: [p('2', 'master', 'CANCELED'), p('1', 'master', 'PENDING')] },
      latest: { iid: '2' },
    });
    expect(await commit('(status: PENDING)')).toEqual({
      sha,
      pipelines: { count: 2, nodes: [p('3', 'feature', 'PENDING'), p('1', 'master', 'PENDING')] },
      latest: { iid: '3' },
    });
    expect(await commit('(ref: "master", status: PENDING)')).toEqual({
      sha,
      pipelines: { count: 1, nodes: [p('1', 'master', 'PENDING')] },
      latest: { iid: '1' },
    });
    expect(await commit(`(sha: "${'0'.repeat(40)}")`)).toEqual({ sha, pipelines: { count: 0, nodes: [] }, latest: null });
  });
});

describe('MergeRequest.pipelines and headPipeline', () => {
  it('are the pipelines of the source branch head in the source project, newest first', async () => {
    const { owner, project } = await ciProject();
    expect((await api.post(`/projects/${project.id}/repository/branches`, { token: owner.token, body: { branch: 'topic', ref: 'master' } })).status).toBe(201);
    const pushed = await api.post(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'topic', commit_message: 'Topic', actions: [{ action: 'create', file_path: 'topic.txt', content: 'x' }] },
    });
    expect(pushed.status).toBe(201);
    const head = pushed.body as { id: string };
    const mr = await api.post(`/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'topic', target_branch: 'master', title: 'Topic' },
    });
    expect(mr.status).toBe(201);
    const query = () =>
      gql(
        `query($path: ID!) { project(fullPath: $path) { mergeRequest(iid: "${mr.body.iid}") { headPipeline { iid sha } pipelines { count nodes { iid } } } } }`,
        {
          token: owner.token,
          variables: { path: project.path_with_namespace },
        },
      ).then((r) => r.body.data.project.mergeRequest);
    // Pipelines 1 (master) and 2 (topic at master's commit) are not of the head commit; 3 (the topic's push) is.
    expect(await query()).toEqual({ headPipeline: { iid: '3', sha: head.id }, pipelines: { count: 1, nodes: [{ iid: '3' }] } });
    expect((await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'topic' } })).status).toBe(201);
    expect(await query()).toEqual({ headPipeline: { iid: '4', sha: head.id }, pipelines: { count: 2, nodes: [{ iid: '4' }, { iid: '3' }] } });
  });
});

describe('authorization', () => {
  const query = (path: string, token?: string) =>
    gql(pipelineQuery('iid userPermissions { adminPipeline destroyPipeline updatePipeline }'), { ...(token ? { token } : {}), variables: { path, iid: '1' } });

  it('a stranger sees no pipeline of a private project (null)', async () => {
    const { project } = await ciProject();
    const stranger = await createUser();
    expect((await query(project.path_with_namespace, stranger.token)).body).toEqual({ data: { project: null } });
    expect((await query(project.path_with_namespace)).body).toEqual({ data: { project: null } });
  });

  it('everyone reads a public project pipeline; the permissions follow the role', async () => {
    const { owner, project } = await ciProject(undefined, { visibility: 'public' });
    const [developer, maintainer, stranger] = [await createUser(), await createUser(), await createUser()];
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
    const perms = async (token?: string) => (await query(project.path_with_namespace, token)).body.data.project.pipeline;
    expect(await perms()).toEqual({ iid: '1', userPermissions: { adminPipeline: false, destroyPipeline: false, updatePipeline: false } });
    expect(await perms(stranger.token)).toEqual({ iid: '1', userPermissions: { adminPipeline: false, destroyPipeline: false, updatePipeline: false } });
    expect(await perms(developer.token)).toEqual({ iid: '1', userPermissions: { adminPipeline: false, destroyPipeline: false, updatePipeline: true } });
    expect(await perms(maintainer.token)).toEqual({ iid: '1', userPermissions: { adminPipeline: true, destroyPipeline: false, updatePipeline: true } });
    expect(await perms(owner.token)).toEqual({ iid: '1', userPermissions: { adminPipeline: true, destroyPipeline: true, updatePipeline: true } });
  });
});
