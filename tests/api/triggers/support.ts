// Shared fixtures of the trigger tests: a CI project with a maintainer, a developer and a reporter, and GitLab's
// UserBasic of a test user.
import { expect } from 'vitest';
import type { UserRow } from '../../../db/schema/index.ts';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject } from '../pipelines/support.ts';

export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

export const userBasic = (u: UserRow) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  state: 'active',
  avatar_url: null,
  web_url: `${TEST_PUBLIC_URL}/${u.username}`,
});

/** A CI project (owner), another maintainer, a developer, a reporter and a stranger. */
export async function triggerFixture(yaml?: string | null) {
  const base = yaml === undefined ? await ciProject() : await ciProject(yaml);
  const [maintainer, developer, reporter, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  await addMember(base.owner.token, 'projects', base.project.id, maintainer.user.id, 40);
  await addMember(base.owner.token, 'projects', base.project.id, developer.user.id, 30);
  await addMember(base.owner.token, 'projects', base.project.id, reporter.user.id, 20);
  return { ...base, maintainer, developer, reporter, stranger };
}

export async function createTrigger(token: string, projectId: number, description = 'deploy') {
  const res = await api.post(`/projects/${projectId}/triggers`, { token, body: { description } });
  if (res.status !== 201) throw new Error(`trigger create failed: ${res.status} ${res.text}`);
  return res.body as { id: number; token: string; description: string };
}

export async function countTriggers(token: string, projectId: number) {
  const res = await api.get(`/projects/${projectId}/triggers`, { token });
  return Number(res.headers.get('x-total'));
}

export async function countPipelines(token: string, projectId: number) {
  const res = await api.get(`/projects/${projectId}/pipelines`, { token });
  return Number(res.headers.get('x-total'));
}
