// Issues are made through the API itself, as projects are.
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export async function createIssue(token: string, projectId: number | string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/projects/${encodeURIComponent(String(projectId))}/issues`, { token, body: { title: unique('Issue '), ...body } });
  if (res.status !== 201) throw new Error(`createIssue failed: ${res.status} ${res.text}`);
  return res.body as { id: number; iid: number; project_id: number; title: string; [k: string]: any };
}
