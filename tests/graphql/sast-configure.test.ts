// GraphQL configureSast (13.6 EE): the `.gitlab-ci.yml` GitLab's SastBuildActions writes, committed on a new branch
// `set-sast-config-<n>` from the default branch (created, or updated when the default branch has the file), read back
// byte for byte through the REST files API; the new-merge-request URL; the commit's refusal as status "error"; push_code
// (developers) required, the resource error and no branch otherwise.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { commitFiles } from '../api/pipelines/support.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const CONFIGURE = `mutation($input: ConfigureSastInput!) { configureSast(input: $input) { clientMutationId status successPath errors } }`;

const COMMENT = `# You can override the included template(s) by including variable overrides
# See https://docs.gitlab.com/ee/user/application_security/sast/#customizing-the-sast-settings
# Note that environment variables can be set in several places
# See https://docs.gitlab.com/ee/ci/variables/#priority-of-environment-variables
`;
const DESCRIPTION =
  'merge_request%5Bdescription%5D=Set+.gitlab-ci.yml+to+enable+or+configure+SAST+security+scanning+using+the+GitLab+managed+template.+You+can+%5Badd+variable+overrides%5D%28https%3A%2F%2Fdocs.gitlab.com%2Fee%2Fuser%2Fapplication_security%2Fsast%2F%23customizing-the-sast-settings%29+to+customize+SAST+settings.';

const entity = (field: string, defaultValue: string, value = defaultValue) => ({ field, defaultValue, value });
/** What GitLab's SAST configuration page sends, all at their defaults. */
const DEFAULTS = {
  global: [
    entity('SECURE_ANALYZERS_PREFIX', 'registry.gitlab.com/gitlab-org/security-products/analyzers'),
    entity('SAST_ANALYZER_IMAGE_TAG', '2'),
    entity('SAST_EXCLUDED_PATHS', 'spec, test, tests, tmp'),
  ],
  pipeline: [entity('stage', 'test'), entity('SEARCH_MAX_DEPTH', '4')],
  analyzers: [
    { name: 'bandit', enabled: true, variables: [entity('SAST_BANDIT_EXCLUDED_PATHS', '*/tests/*')] },
    { name: 'brakeman', enabled: true, variables: [entity('SAST_BRAKEMAN_LEVEL', '1')] },
    { name: 'eslint', enabled: true },
  ],
};

async function setup(files: Record<string, string> | null = { 'README.md': 'hi' }) {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  if (files) await commitFiles(owner.token, project.id, files);
  return { owner, project, path: project.path_with_namespace as string, id: project.id as number };
}

const configure = (token: string | undefined, projectPath: string, configuration: unknown, tier: Tier = 'ultimate') =>
  gql(CONFIGURE, { token, tier, variables: { input: { projectPath, configuration, clientMutationId: 'c' } } });

async function fileOn(token: string, projectId: number, ref: string) {
  const res = await api.get(`/projects/${projectId}/repository/files/.gitlab-ci.yml/raw`, { token, query: { ref } });
  return res.status === 200 ? res.text : null;
}

const branchNames = async (token: string, projectId: number) =>
  ((await api.get(`/projects/${projectId}/repository/branches`, { token })).body as Array<{ name: string }>).map((b) => b.name).sort();

describe('configureSast', () => {
  it('writes the changed settings and excluded analyzers on set-sast-config-1 and answers the new-MR URL', async () => {
    const { owner, path, id } = await setup();
    const configuration = {
      global: [
        entity('SECURE_ANALYZERS_PREFIX', 'registry.gitlab.com/gitlab-org/security-products/analyzers', 'localhost:5000/analyzers'),
        entity('SAST_ANALYZER_IMAGE_TAG', '2', '3'),
        entity('SAST_EXCLUDED_PATHS', 'spec, test, tests, tmp'),
      ],
      pipeline: [entity('stage', 'test', 'security'), entity('SEARCH_MAX_DEPTH', '4', ' ')],
      analyzers: [
        { name: 'eslint', enabled: false },
        { name: 'bandit', enabled: true, variables: [entity('SAST_BANDIT_EXCLUDED_PATHS', '*/tests/*', '*/tests/*, */spec/*')] },
        { name: 'brakeman', enabled: false, variables: [entity('SAST_BRAKEMAN_LEVEL', '1', '2')] },
      ],
    };
    const res = await configure(owner.token, path, configuration);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        configureSast: {
          clientMutationId: 'c',
          status: 'success',
          successPath: `${TEST_PUBLIC_URL}/${path}/-/merge_requests/new?${DESCRIPTION}&merge_request%5Bsource_branch%5D=set-sast-config-1`,
          errors: [],
        },
      },
    });
    expect(await fileOn(owner.token, id, 'set-sast-config-1')).toBe(
      `${COMMENT}stages:
- test
- security
variables:
  SECURE_ANALYZERS_PREFIX: localhost:5000/analyzers
sast:
  variables:
    SAST_ANALYZER_IMAGE_TAG: '3'
    SAST_EXCLUDED_ANALYZERS: brakeman, eslint
    SAST_BANDIT_EXCLUDED_PATHS: '*/tests/*, */spec/*'
  stage: security
include:
- template: Security/SAST.gitlab-ci.yml
`,
    );
    // The default branch is untouched; the commit is GitLab's.
    expect(await fileOn(owner.token, id, 'master')).toBeNull();
    const commit = await api.get(`/projects/${id}/repository/commits/set-sast-config-1`, { token: owner.token });
    expect(commit.body.message).toBe('Set .gitlab-ci.yml to enable or configure SAST');
  });

  it('updates an existing configuration, keeping its jobs and variables, and numbers the next branch', async () => {
    const existing = `stages: [build]
build:
  stage: build
  script: [make]
variables:
  FOO: bar
  SECURE_ANALYZERS_PREFIX: old.example.com
include: ci/other.yml
`;
    const { owner, path, id } = await setup({ '.gitlab-ci.yml': existing });
    const first = await configure(owner.token, path, DEFAULTS);
    expect(first.body.data.configureSast).toMatchObject({ status: 'success', errors: [] });
    const expected = `${COMMENT}stages:
- build
- test
build:
  stage: build
  script:
  - make
variables:
  FOO: bar
include:
- ci/other.yml
- template: Security/SAST.gitlab-ci.yml
sast:
  stage: test
`;
    expect(await fileOn(owner.token, id, 'set-sast-config-1')).toBe(expected);
    const second = await configure(owner.token, path, DEFAULTS);
    expect(second.body.data.configureSast.successPath).toMatch(/merge_request%5Bsource_branch%5D=set-sast-config-2$/);
    expect(await fileOn(owner.token, id, 'set-sast-config-2')).toBe(expected);
    expect(await fileOn(owner.token, id, 'master')).toBe(existing);
  });

  it("a refused commit is status 'error' with the message, and leaves no branch", async () => {
    // An empty .gitlab-ci.yml loads as nothing, so GitLab writes a `create` action, which the file refuses.
    const { owner, path, id } = await setup({ '.gitlab-ci.yml': '' });
    const res = await configure(owner.token, path, DEFAULTS);
    expect(res.body).toEqual({
      data: { configureSast: { clientMutationId: 'c', status: 'error', successPath: null, errors: ['A file with this name already exists'] } },
    });
    expect(await branchNames(owner.token, id)).toEqual(['master']);
  });

  it("an empty repository is status 'error'", async () => {
    const { owner, path } = await setup(null);
    const res = await configure(owner.token, path, DEFAULTS);
    expect(res.body.data.configureSast).toEqual({
      clientMutationId: 'c',
      status: 'error',
      successPath: null,
      errors: ['You can only create or edit files when you are on a branch'],
    });
  });

  it('needs push_code: reporters, strangers and anonymous callers get the resource error and no branch; a developer may, on any tier', async () => {
    const { owner, path, id } = await setup();
    const developer = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', id, developer.user.id, 30);
    await addMember(owner.token, 'projects', id, reporter.user.id, 20);
    for (const token of [reporter.token, stranger.token, undefined]) {
      const res = await configure(token, path, DEFAULTS);
      expect(res.body).toEqual({ data: { configureSast: null }, errors: [expect.objectContaining({ message: RESOURCE_ERROR, path: ['configureSast'] })] });
    }
    expect(await branchNames(owner.token, id)).toEqual(['master']);
    // The mutation authorizes push_code only (no license check in 13.6's ConfigureSast).
    const res = await configure(developer.token, path, DEFAULTS, 'free');
    expect(res.body.data.configureSast).toMatchObject({ status: 'success', errors: [] });
    expect(await branchNames(owner.token, id)).toEqual(['master', 'set-sast-config-1']);
  });
});
