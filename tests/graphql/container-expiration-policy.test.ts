// GraphQL container expiration policies (13.6): Project.containerExpirationPolicy for developers and above (null
// below), updateContainerExpirationPolicy with the enums' values, model errors as ONE sentence, UntrustedRegexp
// arguments that are not RE2 refused before anything runs, the resource error below developer access.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const READ = `query($path: ID!) { project(fullPath: $path) { containerExpirationPolicy { cadence enabled keepN olderThan nameRegex nameRegexKeep nextRunAt createdAt updatedAt } } }`;
const UPDATE = `mutation($input: UpdateContainerExpirationPolicyInput!) { updateContainerExpirationPolicy(input: $input) {
  clientMutationId errors containerExpirationPolicy { cadence enabled keepN olderThan nameRegex nameRegexKeep } } }`;

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'public' });
  return { owner, project, path: project.path_with_namespace as string };
}

describe('Project.containerExpirationPolicy', () => {
  it('the defaults for developers and above; null for reporters and anonymous callers', async () => {
    const { owner, project, path } = await setup();
    const res = await gql(READ, { token: owner.token, variables: { path } });
    expect(res.body.data.project.containerExpirationPolicy).toEqual({
      cadence: 'EVERY_DAY',
      enabled: true,
      keepN: 'TEN_TAGS',
      olderThan: 'NINETY_DAYS',
      nameRegex: null,
      nameRegexKeep: null,
      nextRunAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await gql(READ, { token: reporter.token, variables: { path } })).body.data.project.containerExpirationPolicy).toBeNull();
    expect((await gql(READ, { variables: { path } })).body.data.project.containerExpirationPolicy).toBeNull();
  });
});

describe('updateContainerExpirationPolicy', () => {
  it('a developer changes it; REST shows the same values', async () => {
    const { owner, project, path } = await setup();
    const dev = await createUser();
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const res = await gql(UPDATE, {
      token: dev.token,
      variables: {
        input: {
          projectPath: path,
          cadence: 'EVERY_THREE_MONTHS',
          keepN: 'ONE_HUNDRED_TAGS',
          olderThan: 'SEVEN_DAYS',
          nameRegex: '.*-rc\\d+',
          clientMutationId: 'u',
        },
      },
    });
    expect(res.body).toEqual({
      data: {
        updateContainerExpirationPolicy: {
          clientMutationId: 'u',
          errors: [],
          containerExpirationPolicy: {
            cadence: 'EVERY_THREE_MONTHS',
            enabled: true,
            keepN: 'ONE_HUNDRED_TAGS',
            olderThan: 'SEVEN_DAYS',
            nameRegex: '.*-rc\\d+',
            nameRegexKeep: null,
          },
        },
      },
    });
    const rest = await api.get(`/projects/${project.id}`, { token: owner.token });
    expect(rest.body.container_expiration_policy).toMatchObject({ cadence: '3month', keep_n: 100, older_than: '7d', name_regex: '.*-rc\\d+' });
  });

  it('an UntrustedRegexp that RE2 rejects is a coercion error, nothing runs', async () => {
    const { owner, project, path } = await setup();
    const res = await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, nameRegex: '(?<=a)b' } } });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toContain('(?<=a)b is an invalid regexp: invalid perl operator: (?<');
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.container_expiration_policy.name_regex).toBeNull();
  });

  it('reporters and strangers get the resource error', async () => {
    const { owner, project, path } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    for (const token of [reporter.token, (await createUser()).token]) {
      const res = await gql(UPDATE, { token, variables: { input: { projectPath: path, cadence: 'EVERY_WEEK' } } });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.container_expiration_policy.cadence).toBe('1d');
  });
});
