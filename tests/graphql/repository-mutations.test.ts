// commitCreate and createBranch through POST /api/graphql: the REST write verbs behind them (the same refusals, the
// same push events), business refusals in the payload's `errors`, and a caller without push_code refused with the
// top-level resource error.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createUser } from '../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

async function setup() {
  const owner = await createUser();
  const developer = await createUser();
  const reporter = await createUser();
  const res = await api.post('/projects', {
    token: owner.token,
    body: { name: `gq-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, initialize_with_readme: true },
  });
  expect(res.status, res.text).toBe(201);
  const project = res.body as { id: number; path_with_namespace: string };
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  return { owner, developer, reporter, project };
}

const COMMIT_CREATE = `mutation($input: CommitCreateInput!) { commitCreate(input: $input) {
  clientMutationId errors commit { id sha title message webUrl authorName author { username } } } }`;
const CREATE_BRANCH = `mutation($input: CreateBranchInput!) { createBranch(input: $input) {
  clientMutationId errors branch { name commit { sha title } } } }`;

describe('commitCreate', () => {
  it('commits the actions on the branch: the payload has the commit, REST reads the file and the push event', async () => {
    const fx = await setup();
    const res = await gql(COMMIT_CREATE, {
      token: fx.developer.token,
      variables: {
        input: {
          projectPath: fx.project.path_with_namespace,
          branch: 'feature',
          startBranch: 'master',
          message: 'Add two files',
          clientMutationId: 'm1',
          actions: [
            { action: 'CREATE', filePath: 'docs/a.md', content: 'hello' },
            { action: 'CREATE', filePath: 'bin.dat', content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'BASE64' },
          ],
        },
      },
    });
    expect(res.body.errors).toBeUndefined();
    const payload = res.body.data.commitCreate;
    expect(payload).toMatchObject({
      clientMutationId: 'm1',
      errors: [],
      commit: { title: 'Add two files', message: 'Add two files', authorName: fx.developer.user.name, author: { username: fx.developer.user.username } },
    });
    const sha = payload.commit.sha as string;
    expect(payload.commit.id).toBe(`gid://gitlab/CommitPresenter/${sha}`);
    expect(payload.commit.webUrl).toBe(`${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/commit/${sha}`);

    const file = await api.get(`/projects/${fx.project.id}/repository/files/docs%2Fa.md/raw`, { token: fx.owner.token, query: { ref: 'feature' } });
    expect(file.status).toBe(200);
    expect(file.text).toBe('hello');
    const bin = await api.get(`/projects/${fx.project.id}/repository/files/bin.dat`, { token: fx.owner.token, query: { ref: 'feature' } });
    expect(bin.body.content).toBe(Buffer.from([0, 1, 2]).toString('base64'));
    const events = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } });
    expect(events.body.map((e: { push_data: { ref: string; commit_to: string } }) => e.push_data)).toContainEqual(
      expect.objectContaining({ ref: 'feature', commit_to: sha }),
    );
  });

  it("a refused action: the service's message in errors, no commit, nothing written", async () => {
    const fx = await setup();
    const before = (await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token })).body.length;
    const res = await gql(COMMIT_CREATE, {
      token: fx.owner.token,
      variables: {
        input: {
          projectPath: fx.project.path_with_namespace,
          branch: 'master',
          message: 'Again',
          actions: [{ action: 'CREATE', filePath: 'README.md', content: 'x' }],
        },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.commitCreate).toEqual({ clientMutationId: null, errors: ['A file with this name already exists'], commit: null });
    expect((await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token })).body.length).toBe(before);
  });

  it("an action without what its mode requires: the REST parameters' messages in errors", async () => {
    const fx = await setup();
    const res = await gql(COMMIT_CREATE, {
      token: fx.owner.token,
      variables: {
        input: {
          projectPath: fx.project.path_with_namespace,
          branch: 'master',
          message: 'Incomplete',
          actions: [
            { action: 'UPDATE', filePath: 'README.md' },
            { action: 'MOVE', filePath: 'b.md' },
          ],
        },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.commitCreate).toEqual({
      clientMutationId: null,
      errors: ['actions[0][content] is missing', 'actions[1][previous_path] is missing'],
      commit: null,
    });
  });

  it('a protected branch refuses a developer in errors (push_code holds, the branch rule does not)', async () => {
    const fx = await setup();
    const res = await gql(COMMIT_CREATE, {
      token: fx.developer.token,
      variables: {
        input: {
          projectPath: fx.project.path_with_namespace,
          branch: 'master',
          message: 'Direct',
          actions: [{ action: 'CREATE', filePath: 'new.md', content: 'x' }],
        },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.commitCreate).toEqual({ clientMutationId: null, errors: ['You are not allowed to push into this branch'], commit: null });
  });

  it('a reporter, a stranger and a missing project: the top-level resource error', async () => {
    const fx = await setup();
    const stranger = await createUser();
    const input = (projectPath: string) => ({
      projectPath,
      branch: 'feature',
      startBranch: 'master',
      message: 'No',
      actions: [{ action: 'CREATE', filePath: 'x.md', content: 'x' }],
    });
    for (const [token, path] of [
      [fx.reporter.token, fx.project.path_with_namespace],
      [stranger.token, fx.project.path_with_namespace],
      [fx.owner.token, 'no/such-project'],
    ] as const) {
      const res = await gql(COMMIT_CREATE, { token, variables: { input: input(path) } });
      expect(res.body.data).toEqual({ commitCreate: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect((await api.get(`/projects/${fx.project.id}/repository/branches/feature`, { token: fx.owner.token })).status).toBe(404);
  });
});

describe('createBranch', () => {
  it('creates the branch at the ref: name and commit in the payload', async () => {
    const fx = await setup();
    const head = (await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token })).body[0].id as string;
    const res = await gql(CREATE_BRANCH, {
      token: fx.developer.token,
      variables: { input: { projectPath: fx.project.path_with_namespace, name: 'topic/one', ref: 'master', clientMutationId: 'b1' } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createBranch).toEqual({
      clientMutationId: 'b1',
      errors: [],
      branch: { name: 'topic/one', commit: { sha: head, title: 'Initial commit' } },
    });
    expect((await api.get(`/projects/${fx.project.id}/repository/branches/topic%2Fone`, { token: fx.owner.token })).status).toBe(200);
  });

  it("an existing branch or a ref that names nothing: CreateBranchService's message in errors", async () => {
    const fx = await setup();
    const run = (name: string, ref: string) =>
      gql(CREATE_BRANCH, { token: fx.developer.token, variables: { input: { projectPath: fx.project.path_with_namespace, name, ref } } });
    expect((await run('master', 'master')).body.data.createBranch).toEqual({ clientMutationId: null, errors: ['Branch already exists'], branch: null });
    expect((await run('fresh', 'nowhere')).body.data.createBranch).toEqual({
      clientMutationId: null,
      errors: ['Invalid reference name: nowhere'],
      branch: null,
    });
  });

  it('a reporter: the top-level resource error', async () => {
    const fx = await setup();
    const res = await gql(CREATE_BRANCH, {
      token: fx.reporter.token,
      variables: { input: { projectPath: fx.project.path_with_namespace, name: 'nope', ref: 'master' } },
    });
    expect(res.body.data).toEqual({ createBranch: null });
    expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
  });
});
