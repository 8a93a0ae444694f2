// Labels are made through the API itself.
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export type LabelSource = 'projects' | 'groups';

export async function createLabel(
  token: string,
  source: LabelSource,
  id: number | string,
  options: { name?: string; color?: string; description?: string; priority?: number } = {},
) {
  const res = await api.post(`/${source}/${encodeURIComponent(String(id))}/labels`, {
    token,
    body: { name: options.name ?? unique('label'), color: options.color ?? '#428BCA', description: options.description, priority: options.priority },
  });
  if (res.status !== 201) throw new Error(`createLabel failed: ${res.status} ${res.text}`);
  return res.body as { id: number; name: string; color: string; [k: string]: any };
}
