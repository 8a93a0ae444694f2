// Snippets are made through the API itself: personal ones with POST /snippets, project ones with
// POST /projects/:id/snippets.
import { api } from '../helpers/app.ts';
import { unique } from './users.ts';

export type SnippetVisibility = 'private' | 'internal' | 'public';

export interface SnippetOptions {
  title?: string;
  description?: string;
  visibility?: SnippetVisibility;
  /** Defaults to one file `<unique>.rb` with some content. */
  files?: { file_path: string; content: string }[];
}

export type SnippetEntity = {
  id: number;
  title: string;
  visibility: string;
  project_id: number | null;
  file_name: string;
  files: { path: string; raw_url: string }[];
  [k: string]: any;
};

const body = (options: SnippetOptions) => ({
  title: options.title ?? unique('snippet'),
  description: options.description,
  visibility: options.visibility ?? 'private',
  files: options.files ?? [{ file_path: `${unique('file')}.rb`, content: 'puts "hello"\n' }],
});

/** A personal snippet of the token's user. */
export async function createSnippet(token: string, options: SnippetOptions = {}): Promise<SnippetEntity> {
  const res = await api.post('/snippets', { token, body: body(options) });
  if (res.status !== 201) throw new Error(`createSnippet failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A snippet of the project (by id or full path), authored by the token's user. */
export async function createProjectSnippet(token: string, project: number | string, options: SnippetOptions = {}): Promise<SnippetEntity> {
  const res = await api.post(`/projects/${encodeURIComponent(String(project))}/snippets`, { token, body: body(options) });
  if (res.status !== 201) throw new Error(`createProjectSnippet failed: ${res.status} ${res.text}`);
  return res.body;
}
