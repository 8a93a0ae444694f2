// Repository inputs: the parameters of GitLab 13.6's lib/api/branches.rb, commits.rb, files.rb, repositories.rb and
// tags.rb, with Grape's messages (lib/validate.ts). Fields are declared in GitLab's order, so several errors come out
// in Grape's order. Response shapes are in ./entities.ts.
//
// Ref names, paths and messages are checked here only as Grape checks them (type, presence, `allow_blank`, `values`):
// what git refuses in a name is the service's error ("Branch name is invalid"), as in GitLab.
import { projectRef } from '../lib/ids.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateTime, oneOf, plainString, schema, type Output } from '../lib/validate.ts';

/** Grape's `type: String`: no length or character rules but NUL's (lib/validate.ts). */
const string = plainString;

/** An `optional ..., type: String`: JSON null is Grape's nil, i.e. not given. */
const optionalString = () =>
  z.optional(
    z.pipe(
      z.transform((v: unknown): unknown => (v === null ? undefined : v)),
      z.optional(string()),
    ),
  );

/**
 * `requires ..., type: String, allow_blank: false`: absent is `is missing`; empty, only spaces or JSON null (nil is
 * blank) is `is empty`.
 */
const present = () =>
  z.pipe(
    z.transform((v: unknown): unknown => (v === null ? '' : v)),
    z.pipe(string(), z.string().check(z.refine((s) => s.trim() !== '', { message: 'is empty' }))),
  );

/** `optional ..., type: Boolean, default: x`. */
const flag = (fallback: boolean) => z._default(bool(), fallback);

/**
 * `start_project` (`types: [Integer, String]`): a project by id or full path; JSON numbers are ids, and a reference
 * that cannot name a project is null (the route's 404). Looked up whenever it is truthy in Ruby (an empty string
 * included: 404).
 */
const projectParam = () =>
  z.optional(
    z.pipe(
      z.transform((v: unknown): unknown => (v === null ? undefined : typeof v === 'number' ? String(v) : v)),
      z.optional(projectRef()),
    ),
  );

// ---- lib/api/branches.rb ----

/** GET repository/branches: `use :pagination`, `use :filter_params` (search; sort as BranchesFinder reads it). */
export const ListBranchesInput = schema(() =>
  z.object({
    ...paginationParams(),
    search: optionalString(),
    sort: optionalString(),
  }),
);
export type ListBranchesParams = Output<typeof ListBranchesInput>;

/** POST repository/branches: both `allow_blank: false`. */
export const CreateBranchInput = schema(() => z.object({ branch: present(), ref: present() }));
export type CreateBranchParams = Output<typeof CreateBranchInput>;

// ---- lib/api/commits.rb ----

/** GET repository/commits. */
export const ListCommitsInput = schema(() =>
  z.object({
    ref_name: optionalString(),
    since: z.optional(dateTime()),
    until: z.optional(dateTime()),
    path: optionalString(),
    all: z.optional(bool()),
    with_stats: z.optional(bool()),
    first_parent: z.optional(bool()),
    order: z._default(oneOf(['default', 'topo']), 'default'),
    ...paginationParams(),
  }),
);
export type ListCommitsParams = Output<typeof ListCommitsInput>;

export const COMMIT_ACTIONS = ['create', 'update', 'move', 'delete', 'chmod'] as const;
export type CommitActionName = (typeof COMMIT_ACTIONS)[number];

/**
 * One `actions[]` entry for its `action`, the `given action: ->` blocks of commits.rb: `previous_path` required by
 * move, `content` optional for create/move and required by update, `last_commit_id` for update/move/delete,
 * `execute_filemode` required by chmod. Parameters of a block whose condition fails are not declared (dropped).
 */
const buildActionEntry = (action: CommitActionName | undefined) => {
  const is = (...names: CommitActionName[]) => action !== undefined && names.includes(action);
  return z.object({
    action: oneOf(COMMIT_ACTIONS),
    file_path: string(),
    ...(is('move') ? { previous_path: string() } : {}),
    ...(is('create', 'move') ? { content: optionalString() } : is('update') ? { content: string() } : {}),
    encoding: z._default(oneOf(['text', 'base64']), 'text'),
    ...(is('update', 'move', 'delete') ? { last_commit_id: optionalString() } : {}),
    ...(is('chmod') ? { execute_filemode: bool() } : {}),
  });
};

/** The entry schemas, built on first use, one per action (and one for an entry whose action is missing or unknown). */
const actionEntries = new Map<CommitActionName | undefined, ReturnType<typeof buildActionEntry>>();
const actionEntry = (value: unknown) => {
  const action = COMMIT_ACTIONS.find((a) => a === value);
  let entry = actionEntries.get(action);
  if (!entry) actionEntries.set(action, (entry = buildActionEntry(action)));
  return entry;
};

/** The parsed entry: every conditional field optional, as the service sees them. */
export interface CommitActionParams {
  action: CommitActionName;
  file_path: string;
  previous_path?: string | undefined;
  content?: string | undefined;
  encoding: 'text' | 'base64';
  last_commit_id?: string | undefined;
  execute_filemode?: boolean | undefined;
}

/** Parses an entry with the schema its `action` selects; its issues keep their place (`actions[0][content]`). */
const commitAction = () =>
  z.pipe(
    z.unknown(),
    z.transform((entry, ctx): CommitActionParams => {
      const action = entry !== null && typeof entry === 'object' ? (entry as { action?: unknown }).action : undefined;
      const result = actionEntry(action).safeParse(entry);
      if (result.success) return result.data as CommitActionParams;
      // The issues keep the messages the entry's schema gave them; their paths are prefixed with the entry's index.
      for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: entry } as z.core.$ZodRawIssue);
      return z.NEVER;
    }),
  );

/**
 * POST repository/commits. `mutually_exclusive :start_branch, :start_sha` is checked after the fields (Grape checks
 * it between start_sha and start_project: it comes first only when both rules fail at once).
 */
export const CreateCommitInput = schema(() =>
  z
    .object({
      branch: present(),
      commit_message: string(),
      actions: z.array(commitAction()),
      start_branch: optionalString(),
      start_sha: optionalString(),
      // `types: [Integer, String]`.
      start_project: projectParam(),
      author_email: optionalString(),
      author_name: optionalString(),
      stats: flag(true),
      force: flag(false),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.start_branch !== undefined && v.start_sha !== undefined) {
          ctx.issues.push({ code: 'custom', message: 'are mutually exclusive', path: ['start_branch, start_sha'], input: v });
        }
      }),
    ),
);
export type CreateCommitParams = Output<typeof CreateCommitInput>;

/** GET repository/commits/:sha (`stats`, default true). */
export const GetCommitInput = schema(() => z.object({ stats: flag(true) }));

/** POST repository/commits/:sha/cherry_pick and /revert: `requires :branch, allow_blank: false`, `dry_run` (13.3). */
export const CommitChangeInput = schema(() => z.object({ branch: present(), dry_run: flag(false) }));
export type CommitChangeParams = Output<typeof CommitChangeInput>;

// ---- lib/api/files.rb ----

/** GET (and HEAD) repository/files/:file_path and /blame: `requires :ref, allow_blank: false`. */
export const GetFileInput = schema(() => z.object({ ref: present() }));

/** `params :simple_file_params` (DELETE); the file path itself is the route's. */
const simpleFileParams = () => ({
  branch: present(),
  commit_message: present(),
  start_branch: optionalString(),
  author_email: optionalString(),
  author_name: optionalString(),
});

/**
 * `params :extended_file_params` (POST, PUT). In 13.6 `encoding` takes `values: %w[base64]` only (text is the
 * default when it is left out; `encoding=text` is 400 `encoding does not have a valid value`), and the files API has
 * no `execute_filemode` (14.x).
 */
const extendedFileParams = () => ({
  ...simpleFileParams(),
  content: string(),
  encoding: z.optional(oneOf(['base64'])),
  last_commit_id: optionalString(),
});

export const CreateFileInput = schema(() => z.object(extendedFileParams()));
export const UpdateFileInput = CreateFileInput;
export const DeleteFileInput = schema(() => z.object(simpleFileParams()));
export type WriteFileParams = Output<typeof CreateFileInput>;
export type DeleteFileParams = Output<typeof DeleteFileInput>;

// ---- lib/api/repositories.rb ----

/** GET repository/tree. */
export const TreeInput = schema(() =>
  z.object({
    ref: optionalString(),
    path: optionalString(),
    recursive: flag(false),
    ...paginationParams(),
  }),
);
export type TreeParams = Output<typeof TreeInput>;

// ---- lib/api/tags.rb ----

/** GET repository/tags (TagsFinder's sort is `${order_by}_${sort}`). */
export const ListTagsInput = schema(() =>
  z.object({
    sort: z._default(oneOf(['asc', 'desc']), 'desc'),
    order_by: z._default(oneOf(['name', 'updated']), 'updated'),
    search: optionalString(),
    ...paginationParams(),
  }),
);
export type ListTagsParams = Output<typeof ListTagsInput>;

/** POST repository/tags: a `message` makes the tag annotated. */
export const CreateTagInput = schema(() => z.object({ tag_name: string(), ref: string(), message: optionalString() }));
export type CreateTagParams = Output<typeof CreateTagInput>;
