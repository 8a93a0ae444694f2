// Test cases (issues of type test_case, made by GraphQL's createTestCase on Ultimate) are hidden from the REST issue
// lists (project, group, global; GitLab's Issue::TYPES_FOR_LIST) and their counts, but still read by iid.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, request } from '../../helpers/app.ts';

async function createTestCase(token: string, projectPath: string, title: string) {
  const res = await request('POST', '/api/graphql', {
    token,
    env: { INSTANCE_TIER: 'ultimate' },
    body: {
      query: `mutation($input: CreateTestCaseInput!) { createTestCase(input: $input) { errors testCase { iid } } }`,
      variables: { input: { projectPath, title } },
    },
  });
  expect(res.body.data.createTestCase.errors).toEqual([]);
  return Number(res.body.data.createTestCase.testCase.iid);
}

describe('test cases in REST issue lists', () => {
  it('are left out of project, group and global lists and their totals, and read by iid', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    await createIssue(owner.token, project.id, { title: 'Bug' });
    const testCaseIid = await createTestCase(owner.token, project.path_with_namespace, 'Checkout works');
    await createIssue(owner.token, project.id, { title: 'Feature' });
    for (const path of [`/projects/${project.id}/issues`, `/groups/${group.id}/issues`]) {
      const res = await api.get(path, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body.map((i: { title: string }) => i.title)).toEqual(['Feature', 'Bug']);
      expect(res.headers.get('x-total')).toBe('2');
    }
    const mine = await api.get('/issues', { token: owner.token, query: { scope: 'all', search: 'Checkout' } });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([]);
    const byIid = await api.get(`/projects/${project.id}/issues/${testCaseIid}`, { token: owner.token });
    expect(byIid.status).toBe(200);
    expect(byIid.body.title).toBe('Checkout works');
    const iids = await api.get(`/projects/${project.id}/issues`, { token: owner.token, query: { 'iids[]': String(testCaseIid) } });
    expect(iids.body).toEqual([]);
  });
});
