// Fixtures for the error-tracking settings tests: a private project with an owner, a maintainer, a developer, a
// reporter and a stranger, and the three endpoints.
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, request, type RequestOptions } from '../../helpers/app.ts';

export const API_URL = 'https://sentry.example.com/api/0/projects/myorg/myproject/';

export const settingsPath = (id: number | string) => `/projects/${encodeURIComponent(String(id))}/error_tracking/settings`;

export const getSettings = (id: number | string, o?: RequestOptions) => api.get(settingsPath(id), o);
export const patchSettings = (id: number | string, o?: RequestOptions) => request('PATCH', `/api/v4${settingsPath(id)}`, o);
export const putSettings = (id: number | string, o?: RequestOptions) => api.put(settingsPath(id), o);

/** A private project (in a group, so a path lookup has a slash) and one user per role. */
export async function projectWithRoles(visibility: 'private' | 'internal' | 'public' = 'private') {
  const owner = await createUser();
  const [maintainer, developer, reporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser(), createUser()]);
  const group = await createGroup(owner.token, { visibility });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility });
  await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  return { project, owner, maintainer, developer, reporter, guest, stranger };
}

/** Configures the Sentry connection as the maintainer would (PUT). */
export async function configure(id: number, token: string, body: Record<string, unknown> = {}) {
  const res = await putSettings(id, { token, body: { active: true, integrated: false, api_url: API_URL, token: 'sntrys_secret-token-value', ...body } });
  if (res.status !== 200) throw new Error(`configure failed: ${res.status} ${res.text}`);
  return res.body;
}
