// Snippet verbs for personal snippets (/snippets) and project snippets (/projects/:id/snippets): lib/api/snippets.rb,
// project_snippets.rb, Snippets::{Create,Update,Destroy}Service, PersonalSnippetPolicy and ProjectSnippetPolicy
// (through lib/policy.ts). A snippet the actor may not read is `404 Snippet Not Found`; one it may read but not
// change is 403. GitLab records no event for snippets, so none is written here.
//
// Service failures answer as GitLab 13.x does (`render_api_error!({ error: service_response.message }, 400)`):
// `{"message":{"error":"Title is too long (maximum is 255 characters)"}}`.
import { deleteNotesOf } from '../../db/queries/notes.ts';
import * as q from '../../db/queries/snippets.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { SnippetRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, notFound, serviceFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, Visibility, type ProjectFacts, type SnippetFacts, type VisibilityName } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import type { CreateSnippetParams, SnippetView, UpdateSnippetParams } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** Where a snippet lives: personal (`/snippets`) or a project's (`/projects/:id/snippets`). */
export type SnippetOwner = { kind: 'personal' } | { kind: 'project'; ref: Ref | null };

/** The facts the policy decides on; `project` is null for personal snippets. */
export const snippetFacts = (snippet: Pick<SnippetRow, 'visibilityLevel' | 'authorId'>, project: ProjectFacts | null): SnippetFacts => ({
  kind: 'snippet',
  visibilityLevel: snippet.visibilityLevel,
  authorId: snippet.authorId,
  project,
});

const snippetNotFound = () => notFound('Snippet');

const toView = (row: q.SnippetViewRow): SnippetView => ({ snippet: row.snippet, author: row.author, projectPath: row.projectPath, files: row.files });

/** A personal snippet the actor may read, or 404 `Snippet Not Found` (project snippets are not found here). */
export async function findSnippet(ctx: RequestContext, id: number | null): Promise<SnippetView> {
  const row = id === null ? undefined : await q.findSnippetView(ctx.db, id, null);
  if (!row || !can(ctx.actor, 'snippet:read', snippetFacts(row.snippet, null))) throw snippetNotFound();
  return toView(row);
}

/**
 * A project's snippet the actor may read: the project first (404 `Project Not Found` when hidden), then the snippet
 * (404 `Snippet Not Found` when missing, of another project, or hidden by its own visibility).
 */
export async function findProjectSnippet(ctx: RequestContext, projectRef: Ref | null, snippetId: number | null): Promise<{ project: ProjectView; snippet: SnippetView }> {
  const project = await findProject(ctx, projectRef);
  const row = snippetId === null ? undefined : await q.findSnippetView(ctx.db, snippetId, project.project.id);
  if (!row || !can(ctx.actor, 'snippet:read', snippetFacts(row.snippet, projectFacts(project)))) throw snippetNotFound();
  return { project, snippet: toView(row) };
}

interface Loaded {
  view: SnippetView;
  facts: SnippetFacts;
}

async function load(ctx: RequestContext, owner: SnippetOwner, id: number | null): Promise<Loaded> {
  if (owner.kind === 'personal') {
    const view = await findSnippet(ctx, id);
    return { view, facts: snippetFacts(view.snippet, null) };
  }
  const { project, snippet } = await findProjectSnippet(ctx, owner.ref, id);
  return { view: snippet, facts: snippetFacts(snippet.snippet, projectFacts(project)) };
}

export const getSnippet = async ({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null }>): Promise<SnippetView> => (await load(ctx, input.owner, input.id)).view;

// ---- Lists ----

function listing(ctx: RequestContext, filter: q.SnippetListFilter) {
  return {
    fetch: async (limit: number, offset: number) => (await q.listSnippetViews(ctx.db, ctx.actor, filter, limit, offset)).map(toView),
    count: (limit: number) => q.countSnippets(ctx.db, ctx.actor, filter, limit),
  };
}

/** GET /snippets (the caller's own personal snippets) and GET /snippets/public (everyone's public ones). */
export function listPersonalSnippets({ ctx, input }: Verb<{ scope: 'mine' | 'public' }>) {
  const user = requireUser(ctx);
  return listing(ctx, input.scope === 'mine' ? { kind: 'author', authorId: user.id } : { kind: 'public' });
}

/** GET /projects/:id/snippets: the project's snippets the actor may read. */
export async function listProjectSnippets({ ctx, input }: Verb<{ ref: Ref | null }>) {
  const project = await findProject(ctx, input.ref);
  return listing(ctx, { kind: 'project', projectId: project.project.id });
}

// ---- Raw ----

/** GET .../raw: the first file's content; GET .../files/:ref/:file_path/raw: one file's (the ref is not checked). */
export async function rawSnippet({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null; path?: string | undefined }>): Promise<q.SnippetFile> {
  const { view } = await load(ctx, input.owner, input.id);
  const file = await q.findSnippetFile(ctx.db, view.snippet.id, input.path);
  if (!file) {
    if (input.path !== undefined) throw notFound('File');
    return { path: '', content: '' };
  }
  return file;
}

// ---- Writes ----

/** A failed Snippets service, the model's full messages (REST joins them as a sentence, GraphQL lists them). */
const serviceError = (message: string) => serviceFailed([message]);
const INVALID_ACTIONS = 'Snippet actions have invalid data';

const MAX = 255;

/** Rails' `blank?` on a string: empty or whitespace only. */
const isBlank = (s: string) => s.trim() === '';

/**
 * Snippet's model validations, in the model's order: title presence and length, file name length, content presence
 * (`undefined` = not being set). REST's parameter checks refuse blank titles and contents first; GraphQL reaches them.
 */
function modelErrors(title: string | undefined, fileName: string | undefined, content?: string): string[] {
  const errors: string[] = [];
  if (title !== undefined && isBlank(title)) errors.push("Title can't be blank");
  else if (title !== undefined && title.length > MAX) errors.push(`Title is too long (maximum is ${MAX} characters)`);
  if (fileName !== undefined && fileName.length > MAX) errors.push(`File name is too long (maximum is ${MAX} characters)`);
  if (content !== undefined && isBlank(content)) errors.push("Content can't be blank");
  return errors;
}

/** The repository refuses two files with one path (the commit of the files fails, nothing is kept). */
function assertUniquePaths(files: readonly q.SnippetFile[], verb: 'creating' | 'updating') {
  if (new Set(files.map((f) => f.path)).size !== files.length) throw serviceError(`Repository Error ${verb} the snippet - A file with this name already exists`);
}

const level = (v: VisibilityName) => Visibility[v];

/**
 * Snippets::CreateService. `actions` are snippet_actions (GraphQL's blobActions): only `create` actions with content
 * are valid on creation (else `Snippet actions have invalid data`, before any model validation); the first names the
 * snippet's file_name and content, a create without a path gets `snippetfileN.txt`.
 */
export async function createSnippet({ ctx, input }: Verb<{ owner: SnippetOwner; params: CreateSnippetParams & { actions?: readonly FileAction[] | undefined } }>): Promise<SnippetView> {
  const user = requireUser(ctx);
  let project: ProjectView | null = null;
  if (input.owner.kind === 'project') {
    project = await findProject(ctx, input.owner.ref);
    assertCan(ctx.actor, 'project:create_snippet', projectFacts(project));
  } else {
    assertCan(ctx.actor, 'user:create_snippet', { kind: 'user', id: user.id, state: user.state });
  }
  const p = input.params;
  let files: q.SnippetFile[];
  if (p.actions?.length) {
    if (p.actions.some((a) => a.action !== 'create' || !a.content)) throw serviceError(INVALID_ACTIONS);
    files = applyActions([], p.actions, 'creating');
  } else files = p.files ? p.files.map((f) => ({ path: f.file_path, content: f.content })) : [{ path: p.file_name ?? '', content: p.content ?? '' }];
  // Snippet does not strip its title (no StripAttribute), so it is kept as given.
  const title = p.title;
  const errors = modelErrors(title, files[0]?.path, files[0]?.content ?? '');
  if (errors.length) throw serviceFailed(errors);
  assertUniquePaths(files, 'creating');
  // Personal snippets are private unless told otherwise; project snippets always name their visibility.
  const visibilityLevel = level(p.visibility ?? 'private');
  const snippet = await ctx.transaction((tx) =>
    q.insertSnippet(
      tx,
      {
        type: project ? 'ProjectSnippet' : 'PersonalSnippet',
        projectId: project?.project.id ?? null,
        authorId: user.id,
        title,
        description: p.description ?? null,
        visibilityLevel,
      },
      files,
    ),
  );
  return { snippet, author: user, projectPath: project?.project.pathWithNamespace ?? null, files: files.map((f) => f.path) };
}

export type FileAction = NonNullable<UpdateSnippetParams['files']>[number];

/** A free `snippetfileN.txt` name (SnippetRepository's default for a created file without a path). */
function defaultFileName(taken: Map<string, string>) {
  for (let n = 1; ; n++) if (!taken.has(`snippetfile${n}.txt`)) return `snippetfile${n}.txt`;
}

/**
 * Applies `files` actions (create, update, delete, move) to the current files, as the repository commit would:
 * malformed actions are invalid data, paths that clash or are missing fail the commit.
 */
function applyActions(current: readonly q.SnippetFile[], actions: readonly FileAction[], verb: 'creating' | 'updating' = 'updating'): q.SnippetFile[] {
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

export async function updateSnippet({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null; params: UpdateSnippetParams }>): Promise<SnippetView> {
  requireUser(ctx);
  const { view, facts } = await load(ctx, input.owner, input.id);
  assertCan(ctx.actor, 'snippet:update', facts);
  const p = input.params;
  // Helpers::SnippetsHelpers#validate_params_for_multiple_files
  if ((p.content !== undefined || p.file_name !== undefined) && view.files.length > 1) {
    throw serviceError('To update Snippets with multiple files, you must use the `files` parameter');
  }
  const title = p.title;
  const fileName = p.file_name;
  const errors = modelErrors(title, fileName);
  if (errors.length) throw serviceFailed(errors);
  const changes: q.SnippetChanges = {
    title,
    description: p.description,
    visibilityLevel: p.visibility !== undefined ? level(p.visibility) : undefined,
  };
  const id = view.snippet.id;
  const touchesFiles = p.files !== undefined || p.content !== undefined || fileName !== undefined;
  if (!touchesFiles) {
    const snippet = await q.updateSnippet(ctx.db, id, changes);
    if (!snippet) throw snippetNotFound();
    return { ...view, snippet };
  }
  return ctx.transaction(async (tx) => {
    const current = await q.lockSnippetFiles(tx, id);
    let files: q.SnippetFile[];
    if (p.files !== undefined) files = applyActions(current, p.files);
    else {
      const first = current[0] ?? { path: '', content: '' };
      files = [{ path: fileName || first.path, content: p.content ?? first.content }, ...current.slice(1)];
    }
    const tooLong = modelErrors(undefined, files[0]!.path);
    if (tooLong.length) throw serviceFailed(tooLong);
    assertUniquePaths(files, 'updating');
    const snippet = await q.updateSnippet(tx, id, changes);
    if (!snippet) throw snippetNotFound();
    await q.replaceSnippetFiles(tx, id, files);
    return { ...view, snippet, files: files.map((f) => f.path) };
  });
}

/**
 * Snippets::DestroyService through destroy_conditionally!: the snippet goes with its files, its notes and the award
 * emoji on both, in one transaction; 412 when it changed after the client's `If-Unmodified-Since`.
 */
export async function deleteSnippet({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null; ifUnmodifiedSince?: string | undefined }>): Promise<void> {
  requireUser(ctx);
  const { view, facts } = await load(ctx, input.owner, input.id);
  assertCan(ctx.actor, 'snippet:delete', facts);
  assertUnmodifiedSince(input.ifUnmodifiedSince, view.snippet.updatedAt);
  const deleted = await ctx.transaction(async (tx) => {
    await deleteNotesOf(tx, { type: 'Snippet', id: view.snippet.id });
    return q.deleteSnippet(tx, view.snippet.id);
  });
  if (!deleted) throw snippetNotFound();
}
