// GraphQL environments (13.6): Project.environment/environments with name, prefix search and states (reporters and
// above; nothing for guests), Environment's metrics dashboard and its annotations in a time range
// (AnnotationsFinder), and createAnnotation: GitLab's argument errors, developers only, validation errors in `errors`.
import { describe, expect, it } from 'vitest';
import { metricsDashboardAnnotations } from '../../db/schema/index.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, testDb } from '../helpers/app.ts';
import { commitFiles } from '../api/pipelines/support.ts';
import { gql } from './helpers.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const DASHBOARD = 'config/prometheus/common_metrics.yml';

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  const env = async (name: string) => (await api.post(`/projects/${project.id}/environments`, { token: owner.token, body: { name } })).body as { id: number };
  return { owner, project, path: project.path_with_namespace as string, env };
}

const LIST = `query($path: ID!, $name: String, $search: String, $states: [String!], $first: Int) { project(fullPath: $path) {
  environment(name: $name, search: $search, states: $states) { name }
  environments(name: $name, search: $search, states: $states, first: $first) { nodes { id name state } pageInfo { hasNextPage } } } }`;

const CREATE = `mutation($input: CreateAnnotationInput!) { createAnnotation(input: $input) {
  clientMutationId errors annotation { id description panelId startingAt endingAt } } }`;

const ANNOTATIONS = `query($path: ID!, $name: String, $dashboard: String!, $from: Time!, $to: Time) { project(fullPath: $path) {
  environment(name: $name) { metricsDashboard(path: $dashboard) { path annotations(from: $from, to: $to) { nodes { description } } } } } }`;

const annotationCount = async () => (await testDb().db.select().from(metricsDashboardAnnotations)).length;

describe('Project.environments', () => {
  it('lists with filters for reporters; nothing for guests', async () => {
    const { owner, project, path, env } = await setup();
    const prod = await env('production');
    await env('review/a');
    await env('review/b');
    await api.post(`/projects/${project.id}/environments/${prod.id}/stop`, { token: owner.token });
    const reporter = await createUser();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);

    const all = await gql(LIST, { token: reporter.token, variables: { path } });
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.project.environments.nodes).toEqual([
      { id: `gid://gitlab/Environment/${prod.id}`, name: 'production', state: 'stopped' },
      { id: expect.stringMatching(/^gid:\/\/gitlab\/Environment\/\d+$/), name: 'review/a', state: 'available' },
      { id: expect.stringMatching(/^gid:\/\/gitlab\/Environment\/\d+$/), name: 'review/b', state: 'available' },
    ]);
    expect(all.body.data.project.environment).toEqual({ name: 'production' });
    const names = async (variables: Record<string, unknown>) =>
      (await gql(LIST, { token: reporter.token, variables: { path, ...variables } })).body.data.project.environments.nodes.map((e: { name: string }) => e.name);
    expect(await names({ search: 'Rev' })).toEqual(['review/a', 'review/b']);
    expect(await names({ name: 'review/b' })).toEqual(['review/b']);
    expect(await names({ states: ['available'] })).toEqual(['review/a', 'review/b']);
    expect(await names({ states: ['stopped'] })).toEqual(['production']);
    const page = await gql(LIST, { token: reporter.token, variables: { path, first: 1 } });
    expect(page.body.data.project.environments).toMatchObject({ nodes: [{ name: 'production' }], pageInfo: { hasNextPage: true } });
    const hidden = await gql(LIST, { token: guest.token, variables: { path } });
    expect(hidden.body.data.project).toEqual({ environment: null, environments: { nodes: [], pageInfo: { hasNextPage: false } } });
  });
});

describe('createAnnotation', () => {
  it('annotates an environment (developers); the dashboard reads annotations by path and time range', async () => {
    const { owner, project, path, env } = await setup();
    await commitFiles(owner.token, project.id, { '.gitlab/dashboards/custom.yml': 'dashboard: custom\n' });
    const prod = await env('production');
    const environmentId = `gid://gitlab/Environment/${prod.id}`;
    const create = (input: Record<string, unknown>) =>
      gql(CREATE, { token: owner.token, variables: { input: { environmentId, dashboardPath: DASHBOARD, ...input } } });
    const res = await create({ description: 'deploy v1', startingAt: '2020-01-01T10:00:00Z', endingAt: '2020-01-01T11:00:00Z', clientMutationId: 'c' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createAnnotation).toEqual({
      clientMutationId: 'c',
      errors: [],
      annotation: {
        id: expect.stringMatching(/^gid:\/\/gitlab\/Metrics::Dashboard::Annotation\/\d+$/),
        description: 'deploy v1',
        panelId: null,
        startingAt: '2020-01-01T10:00:00.000Z',
        endingAt: '2020-01-01T11:00:00.000Z',
      },
    });
    await create({ description: 'open ended', startingAt: '2020-01-02T10:00:00Z' });
    await create({ description: 'other dashboard', startingAt: '2020-01-01T10:00:00Z', dashboardPath: '.gitlab/dashboards/custom.yml' });

    const read = async (variables: Record<string, unknown>) => {
      const r = await gql(ANNOTATIONS, { token: owner.token, variables: { path, name: 'production', dashboard: DASHBOARD, ...variables } });
      expect(r.body.errors).toBeUndefined();
      return r.body.data.project.environment.metricsDashboard;
    };
    expect(await read({ from: '2019-12-31T00:00:00Z' })).toEqual({
      path: DASHBOARD,
      annotations: { nodes: [{ description: 'deploy v1' }, { description: 'open ended' }] },
    });
    expect((await read({ from: '2020-01-02T00:00:00Z' })).annotations.nodes).toEqual([{ description: 'open ended' }]);
    // `to` keeps those that end by then (an open-ended one has no end).
    expect((await read({ from: '2019-12-31T00:00:00Z', to: '2020-01-03T00:00:00Z' })).annotations.nodes).toEqual([{ description: 'deploy v1' }]);
    expect((await read({ from: '2019-12-31T00:00:00Z', dashboard: '.gitlab/dashboards/custom.yml' })).annotations.nodes).toEqual([
      { description: 'other dashboard' },
    ]);
  });

  it('an unknown dashboard: no dashboard to read, no annotation made', async () => {
    const { owner, path, env } = await setup();
    const prod = await env('production');
    const before = await annotationCount();
    const input = {
      environmentId: `gid://gitlab/Environment/${prod.id}`,
      dashboardPath: '.gitlab/dashboards/missing.yml',
      description: 'x',
      startingAt: '2020-01-01T00:00:00Z',
    };
    const res = await gql(CREATE, { token: owner.token, variables: { input } });
    expect(res.body.data.createAnnotation).toEqual({ clientMutationId: null, errors: ['Dashboard with requested path can not be found'], annotation: null });
    const read = await gql(ANNOTATIONS, { token: owner.token, variables: { path, name: 'production', dashboard: 'nope.yml', from: '2020-01-01T00:00:00Z' } });
    expect(read.body.data.project.environment).toEqual({ metricsDashboard: null });
    expect(await annotationCount()).toBe(before);
  });

  it("reports the annotation's validation errors and stores nothing", async () => {
    const { owner, env } = await setup();
    const prod = await env('production');
    const before = await annotationCount();
    const input = {
      environmentId: `gid://gitlab/Environment/${prod.id}`,
      dashboardPath: DASHBOARD,
      description: '',
      startingAt: '2020-01-02T00:00:00Z',
      endingAt: '2020-01-01T00:00:00Z',
    };
    const res = await gql(CREATE, { token: owner.token, variables: { input } });
    expect(res.body.data.createAnnotation).toEqual({
      clientMutationId: null,
      errors: ["Description can't be blank", "Ending at can't be before starting_at time"],
      annotation: null,
    });
    expect(await annotationCount()).toBe(before);
  });

  it.each([
    [{}, 'Either a cluster or environment global ID is required'],
    [{ environmentId: 'gid://gitlab/Environment/1', clusterId: 'gid://gitlab/Clusters::Cluster/1' }, 'Either a cluster or environment global ID is required'],
    [{ clusterId: 'gid://gitlab/Clusters::Cluster/1' }, 'Invalid cluster or environment ID'],
    [{ environmentId: 'gid://gitlab/Project/1' }, 'Invalid cluster or environment ID'],
    [{ environmentId: 'nonsense' }, 'Invalid cluster or environment ID'],
  ])('argument error for %j', async (ids, message) => {
    const { owner } = await setup();
    const res = await gql(CREATE, {
      token: owner.token,
      variables: { input: { ...ids, dashboardPath: DASHBOARD, description: 'x', startingAt: '2020-01-01T00:00:00Z' } },
    });
    expect(res.body.data).toEqual({ createAnnotation: null });
    expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([message]);
  });

  it('reporters, strangers, anonymous callers and unknown environments get the resource error', async () => {
    const { owner, project, env } = await setup();
    const prod = await env('production');
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const before = await annotationCount();
    const input = { environmentId: `gid://gitlab/Environment/${prod.id}`, dashboardPath: DASHBOARD, description: 'x', startingAt: '2020-01-01T00:00:00Z' };
    for (const token of [reporter.token, stranger.token, undefined]) {
      const res = await gql(CREATE, { token, variables: { input } });
      expect([res.body.data, res.body.errors.map((e: { message: string }) => e.message)]).toEqual([{ createAnnotation: null }, [RESOURCE_ERROR]]);
    }
    const unknown = await gql(CREATE, { token: owner.token, variables: { input: { ...input, environmentId: 'gid://gitlab/Environment/999999' } } });
    expect(unknown.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    expect(await annotationCount()).toBe(before);
  });
});
