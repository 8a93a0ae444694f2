// Snippet verbs for personal snippets (/snippets) and project snippets (/projects/:id/snippets): lib/api/snippets.rb,
// project_snippets.rb, Snippets::{Create,Update,Destroy}Service, PersonalSnippetPolicy and ProjectSnippetPolicy
// (through lib/policy.ts). A snippet the actor may not read is `404 Snippet Not Found`; one it may read but not
// change is 403. GitLab records no event for snippets, so none is written here.
//
// Service failures answer as GitLab 13.x does (`render_api_error!({ error: service_response.message }, 400)`):
// `{"message":{"error":"Title is too long (maximum is 255 characters)"}}`.
//
// Here: the lookups under the policy, the listings, raw files and delete. Creating is in create.ts, updating in
// update.ts, the rules both apply (model validations, file actions) in rules.ts.
import { deleteNotesOf } from '../notes/statements.ts';
import * as q from '../../db/queries/snippets.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { SnippetRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, type ProjectFacts, type SnippetFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import type { SnippetView } from './schemas.ts';

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

export const snippetNotFound = () => notFound('Snippet');

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
export async function findProjectSnippet(
  ctx: RequestContext,
  projectRef: Ref | null,
  snippetId: number | null,
): Promise<{ project: ProjectView; snippet: SnippetView }> {
  const project = await findProject(ctx, projectRef);
  const row = snippetId === null ? undefined : await q.findSnippetView(ctx.db, snippetId, project.project.id);
  if (!row || !can(ctx.actor, 'snippet:read', snippetFacts(row.snippet, projectFacts(project)))) throw snippetNotFound();
  return { project, snippet: toView(row) };
}

interface Loaded {
  view: SnippetView;
  facts: SnippetFacts;
}

/** The owner's snippet the actor may read (404 otherwise), with the facts its changes are checked on. */
export async function load(ctx: RequestContext, owner: SnippetOwner, id: number | null): Promise<Loaded> {
  if (owner.kind === 'personal') {
    const view = await findSnippet(ctx, id);
    return { view, facts: snippetFacts(view.snippet, null) };
  }
  const { project, snippet } = await findProjectSnippet(ctx, owner.ref, id);
  return { view: snippet, facts: snippetFacts(snippet.snippet, projectFacts(project)) };
}

export const getSnippet = async ({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null }>): Promise<SnippetView> =>
  (await load(ctx, input.owner, input.id)).view;

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

/** The search API's snippet_titles: every snippet the actor may read that Snippet.search matches. */
export const searchSnippets = (ctx: RequestContext, query: string) => listing(ctx, { kind: 'search', query });

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
