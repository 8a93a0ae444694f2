// Board fixtures: a project or group with an owner, a reporter and a guest, made through the API.
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

export type BoardParentKind = 'projects' | 'groups';
export const PREMIUM = { INSTANCE_TIER: 'premium' } as const;

export async function boardParent(kind: BoardParentKind, visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility });
  const id = kind === 'groups' ? group.id : project.id;
  await addMember(owner.token, kind, id, reporter.user.id, 20);
  await addMember(owner.token, kind, id, guest.user.id, 10);
  return { kind, id, group, project, owner, reporter, guest, stranger };
}

/** A board made through the API (premium, so that a group may hold several). */
export async function createBoard(token: string, kind: BoardParentKind, id: number, name = unique('board')) {
  const res = await api.post(`/${kind}/${id}/boards`, { token, body: { name }, env: PREMIUM });
  if (res.status !== 201) throw new Error(`createBoard failed: ${res.status} ${res.text}`);
  return res.body as { id: number; name: string; lists: unknown[]; [k: string]: any };
}
