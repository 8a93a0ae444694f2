// Shared fixtures of the pipeline tests: a project with a `.gitlab-ci.yml` committed through the API.
import { api } from '../../helpers/app.ts';
import { createProject, type ProjectOptions } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

/** Two stages, a `needs` edge, a manual job and an allowed failure. */
export const CI_YAML = `stages: [build, test, deploy]
variables:
  GLOBAL: "g"
build:
  stage: build
  script: [echo build]
lint:
  stage: test
  script: [echo lint]
  allow_failure: true
rspec:
  stage: test
  script: [echo rspec]
  needs: [build]
  variables:
    OWN: "o"
deploy:
  stage: deploy
  script: [echo deploy]
  when: manual
`;

/** A commit of new files on `branch`; a new branch other than master starts from master (`from`: null for an existing one). */
export async function commitFiles(
  token: string,
  projectId: number,
  files: Record<string, string>,
  branch = 'master',
  message = 'CI',
  from: string | null = 'master',
) {
  const res = await api.post(`/projects/${projectId}/repository/commits`, {
    token,
    body: {
      branch,
      ...(branch === 'master' || from === null ? {} : { start_branch: from }),
      commit_message: message,
      actions: Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content })),
    },
  });
  if (res.status !== 201) throw new Error(`commit failed: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** An owner, a project and (unless `yaml` is null) its first commit with `.gitlab-ci.yml`. */
export async function ciProject(yaml: string | null = CI_YAML, options: ProjectOptions = {}) {
  const owner = await createUser();
  const project = await createProject(owner.token, options);
  const commit =
    yaml === null ? await commitFiles(owner.token, project.id, { 'README.md': 'hi' }) : await commitFiles(owner.token, project.id, { '.gitlab-ci.yml': yaml });
  return { owner, project, sha: commit.id };
}
