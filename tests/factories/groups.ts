// Groups and memberships are made through the API itself, as projects are.
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export interface GroupOptions {
  parentId?: number;
  visibility?: 'private' | 'internal' | 'public';
  name?: string;
  path?: string;
  description?: string;
}

export type GroupEntity = { id: number; name: string; path: string; full_path: string; full_name: string; parent_id: number | null; [k: string]: any };

/** A group owned by the token's user (a subgroup with `parentId`), private unless told otherwise. */
export async function createGroup(token: string, options: GroupOptions = {}): Promise<GroupEntity> {
  const path = options.path ?? unique('group');
  const res = await api.post('/groups', {
    token,
    body: {
      name: options.name ?? `Group ${path}`,
      path,
      visibility: options.visibility ?? 'private',
      parent_id: options.parentId,
      description: options.description,
    },
  });
  if (res.status !== 201) throw new Error(`createGroup failed: ${res.status} ${res.text}`);
  return res.body;
}

export type MemberSource = 'projects' | 'groups';

/** Adds `userId` to a project or group at `level` (10 guest ... 50 owner). */
export async function addMember(token: string, source: MemberSource, id: number | string, userId: number, level: number, expiresAt?: string) {
  const res = await api.post(`/${source}/${encodeURIComponent(String(id))}/members`, {
    token,
    body: { user_id: userId, access_level: level, expires_at: expiresAt },
  });
  if (res.status !== 201) throw new Error(`addMember failed: ${res.status} ${res.text}`);
  return res.body as { id: number; access_level: number; expires_at: string | null; [k: string]: any };
}
