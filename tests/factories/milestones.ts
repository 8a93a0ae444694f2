// Milestones are made through the API itself.
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export type MilestoneSource = 'projects' | 'groups';

export async function createMilestone(
  token: string,
  source: MilestoneSource,
  id: number | string,
  options: { title?: string; description?: string; due_date?: string; start_date?: string } = {},
) {
  const res = await api.post(`/${source}/${encodeURIComponent(String(id))}/milestones`, {
    token,
    body: { title: options.title ?? unique('milestone'), ...options },
  });
  if (res.status !== 201) throw new Error(`createMilestone failed: ${res.status} ${res.text}`);
  return res.body as { id: number; iid: number; title: string; state: string; [k: string]: any };
}
