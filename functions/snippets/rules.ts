// What a snippet write must satisfy, for create.ts and update.ts: Snippet's model validations in the model's order,
// unique file paths, and the `files` actions (create, update, delete, move) applied as the repository commit would.
import type * as q from '../../db/queries/snippets.ts';
import { serviceFailed } from '../lib/errors.ts';
import { Visibility, type VisibilityName } from '../lib/policy.ts';
import type { UpdateSnippetParams } from './schemas.ts';

/** A failed Snippets service, the model's full messages (REST joins them as a sentence, GraphQL lists them). */
export const serviceError = (message: string) => serviceFailed([message]);
export const INVALID_ACTIONS = 'Snippet actions have invalid data';

const MAX = 255;

/** Rails' `blank?` on a string: empty or whitespace only. */
const isBlank = (s: string) => s.trim() === '';

/**
 * Snippet's model validations, in the model's order: title presence and length, file name length, content presence
 * (`undefined` = not being set). REST's parameter checks refuse blank titles and contents first; GraphQL reaches them.
 */
export function modelErrors(title: string | undefined, fileName: string | undefined, content?: string): string[] {
  const errors: string[] = [];
  if (title !== undefined && isBlank(title)) errors.push("Title can't be blank");
  else if (title !== undefined && title.length > MAX) errors.push(`Title is too long (maximum is ${MAX} characters)`);
  if (fileName !== undefined && fileName.length > MAX) errors.push(`File name is too long (maximum is ${MAX} characters)`);
  if (content !== undefined && isBlank(content)) errors.push("Content can't be blank");
  return errors;
}

/** The repository refuses two files with one path (the commit of the files fails, nothing is kept). */
export function assertUniquePaths(files: readonly q.SnippetFile[], verb: 'creating' | 'updating') {
  if (new Set(files.map((f) => f.path)).size !== files.length)
    throw serviceError(`Repository Error ${verb} the snippet - A file with this name already exists`);
}

export const level = (v: VisibilityName) => Visibility[v];

export type FileAction = NonNullable<UpdateSnippetParams['files']>[number];

/** A free `snippetfileN.txt` name (SnippetRepository's default for a created file without a path). */
function defaultFileName(taken: Map<string, string>) {
  for (let n = 1; ; n++) if (!taken.has(`snippetfile${n}.txt`)) return `snippetfile${n}.txt`;
}

/**
 * Applies `files` actions (create, update, delete, move) to the current files, as the repository commit would:
 * malformed actions are invalid data, paths that clash or are missing fail the commit.
 */
export function applyActions(current: readonly q.SnippetFile[], actions: readonly FileAction[], verb: 'creating' | 'updating' = 'updating'): q.SnippetFile[] {
  const files = new Map(current.map((f) => [f.path, f.content] as [string, string]));
  const conflict = (what: string) => serviceError(`Repository Error ${verb} the snippet - ${what}`);
  for (const a of actions) {
    const path = a.file_path || undefined;
    const previous = a.previous_path || undefined;
    switch (a.action) {
      case 'create': {
        if (!a.content) throw serviceError(INVALID_ACTIONS);
        const name = path ?? defaultFileName(files);
        if (files.has(name)) throw conflict('A file with this name already exists');
        files.set(name, a.content);
        break;
      }
      case 'update': {
        if (!path || !a.content) throw serviceError(INVALID_ACTIONS);
        if (!files.has(path)) throw conflict("A file with this name doesn't exist");
        files.set(path, a.content);
        break;
      }
      case 'delete': {
        if (!path) throw serviceError(INVALID_ACTIONS);
        if (!files.has(path)) throw conflict("A file with this name doesn't exist");
        files.delete(path);
        break;
      }
      case 'move': {
        if (!path || !previous) throw serviceError(INVALID_ACTIONS);
        if (!files.has(previous)) throw conflict("A file with this name doesn't exist");
        if (path !== previous && files.has(path)) throw conflict('A file with this name already exists');
        // Map keeps insertion order: rebuild it so the moved file keeps its place.
        const entries = [...files.entries()].map(([p, c]): [string, string] => (p === previous ? [path, a.content || c] : [p, c]));
        files.clear();
        for (const [p, c] of entries) files.set(p, c);
        break;
      }
    }
  }
  if (files.size === 0) throw serviceError(INVALID_ACTIONS);
  return [...files.entries()].map(([path, content]) => ({ path, content }));
}
