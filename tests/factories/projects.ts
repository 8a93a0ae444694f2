// Projects are made through the API itself (the create path is short and this keeps factories honest).
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export interface ProjectOptions {
  visibility?: 'private' | 'internal' | 'public';
  namespaceId?: number | string;
  name?: string;
  path?: string;
}

export async function createProject(token: string, options: ProjectOptions = {}) {
  const name = options.name ?? unique('project');
  const res = await api.post('/projects', {
    token,
    body: { name, path: options.path, visibility: options.visibility ?? 'private', namespace_id: options.namespaceId },
  });
  if (res.status !== 201) throw new Error(`createProject failed: ${res.status} ${res.text}`);
  return res.body as { id: number; path_with_namespace: string; name: string; path: string; [k: string]: any };
}
