// One rule for what an issuable's title (and description) may be (functions/issuables/validation.ts, GitLab 13.6's
// Issuable validations), decided by the verbs: the REST routes (model errors, 400 `{"message":{"title":[...]}}`) and
// the GraphQL mutations (the payload's errors, ActiveModel's full messages) of merge requests, issues and test cases,
// and epics answer the same words for the same title, and neither writes anything.
import { describe, expect, it } from 'vitest';
import { createEpic, PREMIUM } from '../api/epics/support.ts';
import { mrProject, mrs, openMergeRequest } from '../api/merge-requests/support.ts';
import { createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request } from '../helpers/app.ts';

const gql = (query: string, token: string, input: Record<string, unknown>, tier: 'premium' | 'ultimate' = 'ultimate') =>
  request('POST', '/api/graphql', { token, body: { query, variables: { input } }, env: { INSTANCE_TIER: tier } });

/**
 * The same bad input, as REST's model errors and as GraphQL's full messages. (The description's 1 MiB limit is the
 * same rule, but no request can carry such a description: /api refuses bodies over 1 MiB with 413 first.)
 */
const BAD: Array<[string, Record<string, unknown>, Record<string, string[]>, string]> = [
  ['a blank title', { title: '  ' }, { title: ["can't be blank"] }, "Title can't be blank"],
  [
    'a title of 256 characters',
    { title: 'x'.repeat(256) },
    { title: ['is too long (maximum is 255 characters)'] },
    'Title is too long (maximum is 255 characters)',
  ],
];

describe('merge requests: REST and GraphQL refuse the same titles alike', () => {
  it.each(BAD)('create with %s', async (_name, fields, rest, message) => {
    const fx = await mrProject();
    const viaRest = await api.post(mrs(fx), { token: fx.owner.token, body: { source_branch: 'topic', target_branch: 'master', ...fields } });
    expect([viaRest.status, viaRest.body]).toEqual([400, { message: rest }]);
    const viaGraphql = await gql(
      'mutation($input: MergeRequestCreateInput!) { mergeRequestCreate(input: $input) { errors mergeRequest { iid } } }',
      fx.owner.token,
      { projectPath: fx.project.path_with_namespace, sourceBranch: 'topic', targetBranch: 'master', ...fields },
    );
    expect(viaGraphql.body).toEqual({ data: { mergeRequestCreate: { errors: [message], mergeRequest: null } } });
    expect((await api.get(mrs(fx), { token: fx.owner.token })).body).toEqual([]);
  });

  it.each(BAD)('update with %s', async (_name, fields, rest, message) => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    const viaRest = await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: fields });
    expect([viaRest.status, viaRest.body]).toEqual([400, { message: rest }]);
    const viaGraphql = await gql(
      'mutation($input: MergeRequestUpdateInput!) { mergeRequestUpdate(input: $input) { errors mergeRequest { iid } } }',
      fx.owner.token,
      { projectPath: fx.project.path_with_namespace, iid: String(mr.iid), ...fields },
    );
    expect(viaGraphql.body).toEqual({ data: { mergeRequestUpdate: { errors: [message], mergeRequest: null } } });
    expect((await api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).body).toMatchObject({ title: 'Edit the list', description: null });
  });

  it('a caller who may not see the project meets its 404 before the title is looked at', async () => {
    const fx = await mrProject();
    const stranger = await createUser();
    const res = await api.post(mrs(fx), { token: stranger.token, body: { source_branch: 'topic', target_branch: 'master', title: '  ' } });
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('issues and test cases: the issue rule for both', () => {
  it.each(BAD)('%s', async (_name, fields, rest, message) => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const viaRest = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: fields });
    expect([viaRest.status, viaRest.body]).toEqual([400, { message: rest }]);
    // Test cases strip the title first (Issuable's strip_attributes) and answer the messages as one sentence.
    const viaGraphql = await gql('mutation($input: CreateTestCaseInput!) { createTestCase(input: $input) { errors testCase { iid } } }', owner.token, {
      projectPath: project.path_with_namespace,
      ...fields,
    });
    expect(viaGraphql.body).toEqual({ data: { createTestCase: { errors: [message], testCase: null } } });
    expect((await api.get(`/projects/${project.id}/issues`, { token: owner.token })).body).toEqual([]);
  });
});

describe('epics: REST and GraphQL refuse the same titles alike', () => {
  it.each(BAD)('create and update with %s', async (_name, fields, rest, message) => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const viaRest = await api.post(`/groups/${group.id}/epics`, { token: owner.token, body: fields, env: PREMIUM });
    expect([viaRest.status, viaRest.body]).toEqual([400, { message: rest }]);
    const created = await gql(
      'mutation($input: CreateEpicInput!) { createEpic(input: $input) { errors epic { iid } } }',
      owner.token,
      { groupPath: group.full_path, ...fields },
      'premium',
    );
    expect(created.body).toEqual({ data: { createEpic: { errors: [message], epic: null } } });

    const epic = await createEpic(owner.token, group.id, { title: 'Kept' });
    const updatedRest = await api.put(`/groups/${group.id}/epics/${epic.iid}`, { token: owner.token, body: fields, env: PREMIUM });
    expect([updatedRest.status, updatedRest.body]).toEqual([400, { message: rest }]);
    const updated = await gql(
      'mutation($input: UpdateEpicInput!) { updateEpic(input: $input) { errors epic { iid } } }',
      owner.token,
      { groupPath: group.full_path, iid: String(epic.iid), ...fields },
      'premium',
    );
    expect(updated.body).toEqual({ data: { updateEpic: { errors: [message], epic: null } } });
    expect((await api.get(`/groups/${group.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM })).body).toMatchObject({
      title: 'Kept',
      description: null,
    });
  });
});
