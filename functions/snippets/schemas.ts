// Snippet inputs (lib/api/snippets.rb, project_snippets.rb, Helpers::SnippetsHelpers' create_file_params and
// update_file_params) and Entities::Snippet / PersonalSnippet / ProjectSnippet (13.x: one shape for both).
import type { SnippetRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { VISIBILITY_NAMES, visibilityName } from '../lib/policy.ts';
import * as z from 'zod/mini';
import { oneOf, pathId, scalarStr, schema, text, type Output } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';

/** `:snippet_id` / `:id` of a snippet: Grape's Integer (not a number: 400 `is invalid`; out of range: not found). */
export const SnippetIdPath = () => ({ snippet_id: pathId() });

export const ListSnippetsInput = schema(() => z.object(paginationParams()));

/**
 * Request bounds only: the model's own limits (title 255) are checked by the service and answered as GitLab's
 * service errors. Contents are free text (newlines, tabs); the 1 MiB body limit bounds them.
 */
const title = () => scalarStr(10_000);
const content = () => text(1024 * 1024);
const filePath = () => scalarStr(10_000);
const visibility = () => oneOf(VISIBILITY_NAMES);

/** Grape's `allow_blank: false`: blank (after trimming, as `present?`) is `is empty`. */
const blank = (v: unknown) => typeof v === 'string' && v.trim() === '';

const CreateFile = () => z.object({ file_path: filePath(), content: content() });

const createFields = () => ({
  title: title(),
  description: z.optional(z.nullable(text(1024 * 1024))),
  files: z.optional(z.array(CreateFile())),
  content: z.optional(content()),
  file_name: z.optional(filePath()),
});

export const CreatePersonalSnippetInput = schema(() => z.object({ ...createFields(), visibility: z.optional(visibility()) }));
/** Project snippets require `visibility`. */
export const CreateProjectSnippetInput = schema(() => z.object({ ...createFields(), visibility: visibility() }));

export const SNIPPET_FILE_ACTIONS = ['create', 'update', 'delete', 'move'] as const;
const UpdateFile = () =>
  z.object({
    action: oneOf(SNIPPET_FILE_ACTIONS),
    content: z.optional(content()),
    file_path: z.optional(filePath()),
    previous_path: z.optional(filePath()),
  });

export const UpdateSnippetInput = schema(() =>
  z.object({
    content: z.optional(content()),
    description: z.optional(z.nullable(text(1024 * 1024))),
    file_name: z.optional(filePath()),
    title: z.optional(title()),
    visibility: z.optional(visibility()),
    files: z.optional(z.array(UpdateFile())),
  }),
);

export type CreateSnippetParams = Output<typeof CreatePersonalSnippetInput>;
export type UpdateSnippetParams = Output<typeof UpdateSnippetInput>;

/** Helpers::SnippetsHelpers' file_path validator (Gitlab::Utils.check_path_traversal!). */
const traverses = (p: string) => /(^|[\\/])\.\.([\\/]|$)/.test(p) || p.startsWith('/');

/**
 * The rules Grape checks across parameters, in its order: `allow_blank: false` on title, files[][file_path] and
 * files[][content] and content; the file_path validator; `given :content { requires :file_name }`;
 * mutually_exclusive and exactly_one_of files/content. Messages as Grape words them.
 */
export function createParamErrors(input: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (blank(input.title)) errors.push('title is empty');
  if (Array.isArray(input.files)) {
    input.files.forEach((f: unknown, i) => {
      const file = (f ?? {}) as Record<string, unknown>;
      if (blank(file.file_path)) errors.push(`files[${i}][file_path] is empty`);
      else if (typeof file.file_path === 'string' && traverses(file.file_path)) errors.push(`files[${i}][file_path] should be a valid file path`);
      if (blank(file.content)) errors.push(`files[${i}][content] is empty`);
    });
  }
  if (blank(input.content)) errors.push('content is empty');
  if (input.content !== undefined && input.file_name === undefined) errors.push('file_name is missing');
  const hasFiles = input.files !== undefined;
  const hasContent = input.content !== undefined;
  if (hasFiles && hasContent) errors.push('files, content are mutually exclusive');
  else if (!hasFiles && !hasContent) errors.push('files, content are missing, exactly one parameter must be provided');
  return errors;
}

export const UPDATE_FIELDS = ['content', 'description', 'files', 'file_name', 'title', 'visibility'] as const;

/** update_file_params and minimum_update_params, with `allow_blank: false` on title and content. */
export function updateParamErrors(input: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (blank(input.content)) errors.push('content is empty');
  if (blank(input.title)) errors.push('title is empty');
  if (Array.isArray(input.files)) {
    input.files.forEach((f: unknown, i) => {
      const file = (f ?? {}) as Record<string, unknown>;
      for (const key of ['file_path', 'previous_path'] as const) {
        if (typeof file[key] === 'string' && traverses(file[key] as string)) errors.push(`files[${i}][${key}] should be a valid file path`);
      }
    });
  }
  if (input.files !== undefined && input.content !== undefined) errors.push('files, content are mutually exclusive');
  if (input.files !== undefined && input.file_name !== undefined) errors.push('files, file_name are mutually exclusive');
  if (UPDATE_FIELDS.every((f) => input[f] === undefined)) errors.push(`${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`);
  return errors;
}

// ---- Entities ----

/**
 * The branch the files' raw URLs name (Snippet#default_branch in 13.x: snippet repositories are created on
 * `master`).
 */
export const SNIPPET_REF = 'master';

/** What an entity needs: the row, its author, its project's full path (project snippets) and its files in order. */
export interface SnippetView {
  snippet: SnippetRow;
  author: UserRow;
  projectPath: string | null;
  files: string[];
}

/** Gitlab::UrlBuilder for snippets: `/-/snippets/:id` (personal) or `/<project>/-/snippets/:id`. */
export function snippetWebUrl(config: Config, s: Pick<SnippetView, 'snippet' | 'projectPath'>) {
  const base = s.projectPath !== null ? `${config.publicUrl}/${s.projectPath}` : config.publicUrl;
  return `${base}/-/snippets/${s.snippet.id}`;
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** Entities::Snippet (PersonalSnippet and ProjectSnippet have the same shape; v4 has no expires_at). */
export function toSnippet(v: SnippetView, config: Config) {
  const webUrl = snippetWebUrl(config, v);
  const s = v.snippet;
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: visibilityName(s.visibilityLevel),
    author: toUserBasic(v.author, config),
    updated_at: iso(s.updatedAt),
    created_at: iso(s.createdAt),
    project_id: s.projectId,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    file_name: v.files[0] ?? null,
    files: v.files.map((path) => ({ path, raw_url: `${webUrl}/raw/${SNIPPET_REF}/${encodePath(path)}` })),
  };
}
