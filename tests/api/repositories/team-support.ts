// The fixture the repository write tests share: a private project (README.md on its default branch unless told
// otherwise), its owner, and a developer and a reporter (and a maintainer when asked: adding one records a member
// event some tests would rather not see).
import { expect } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

export async function projectWithTeam(prefix: string, { initialize = true }: { initialize?: boolean } = {}) {
  const owner = await createUser();
  const developer = await createUser();
  const reporter = await createUser();
  const name = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const res = await api.post('/projects', { token: owner.token, body: { name, initialize_with_readme: initialize } });
  expect(res.status, res.text).toBe(201);
  const project = res.body as { id: number; path_with_namespace: string };
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  return { owner, developer, reporter, project };
}

/** projectWithTeam, with a maintainer too. */
export async function projectWithMaintainer(prefix: string, options: { initialize?: boolean } = {}) {
  const team = await projectWithTeam(prefix, options);
  const maintainer = await createUser();
  await addMember(team.owner.token, 'projects', team.project.id, maintainer.user.id, 40);
  return { ...team, maintainer };
}
