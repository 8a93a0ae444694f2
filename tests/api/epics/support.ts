// Epic test helpers: epics are Premium, so requests carry the tier they are about.
import { api } from '../../helpers/app.ts';
import { unique } from '../../factories/users.ts';

export const PREMIUM = { INSTANCE_TIER: 'premium' } as const;
export const FREE = { INSTANCE_TIER: 'free' } as const;

export async function createEpic(token: string, groupId: number | string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/groups/${encodeURIComponent(String(groupId))}/epics`, { token, body: { title: unique('Epic '), ...body }, env: PREMIUM });
  if (res.status !== 201) throw new Error(`createEpic failed: ${res.status} ${res.text}`);
  return res.body as { id: number; iid: number; title: string; [k: string]: any };
}
