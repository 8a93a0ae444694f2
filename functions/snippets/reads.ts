// Batched snippet reads for GraphQL: SnippetsFinder's pages (Query.snippets; User.snippets and Project.snippets under
// one or many parents, one statement for all), the files of a page of snippets, a snippet by id. The policy's
// visibility is in every query (visibleSnippetsFilter).
import {
  findFilesOfSnippets,
  findSnippetFacts,
  listSnippetFactsPage,
  listSnippetFactsPages,
  type SnippetFactsRow,
  type SnippetFile,
  type SnippetFinderFilter,
} from '../../db/queries/snippets.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { can, Visibility, type SnippetFacts, type VisibilityName } from '../lib/policy.ts';
import { snippetFacts } from './service.ts';

/** SnippetsFinder's parameters (GraphQL's arguments). */
export type SnippetFinderParams = Omit<SnippetFinderFilter, 'visibilityLevel'> & { visibility?: VisibilityName | undefined };

const finderFilter = ({ visibility, ...p }: SnippetFinderParams): SnippetFinderFilter => ({
  ...p,
  visibilityLevel: visibility !== undefined ? Visibility[visibility] : undefined,
});

/** The policy's facts of a snippet row (its project's facts were loaded with it). */
export const snippetRowFacts = (s: SnippetFactsRow): SnippetFacts =>
  snippetFacts(
    s.snippet,
    s.snippet.projectId === null
      ? null
      : {
          kind: 'project',
          visibilityLevel: s.projectVisibility ?? Visibility.private,
          accessLevel: s.projectAccess,
          archived: s.projectArchived ?? false,
          features: s.projectFeatures,
        },
  );

/** One keyset page of the snippets the actor may read, newest first. */
export const snippetsPage = (ctx: RequestContext, params: SnippetFinderParams, page: KeysetPage) =>
  listSnippetFactsPage(ctx.db, ctx.actor, finderFilter(params), page);

/** The same page for each of several authors or projects. */
export const snippetPagesOf = (
  ctx: RequestContext,
  parent: 'authorId' | 'projectId',
  parentIds: readonly number[],
  params: Omit<SnippetFinderParams, 'authorId' | 'projectId'>,
  page: KeysetPage,
) => listSnippetFactsPages(ctx.db, ctx.actor, finderFilter(params), parent, parentIds, page);

/** A snippet the actor may read, by id (null otherwise). */
export async function readableSnippetById(ctx: RequestContext, id: number): Promise<SnippetFactsRow | null> {
  const row = await findSnippetFacts(ctx.db, ctx.actor, id);
  return row && can(ctx.actor, 'snippet:read', snippetRowFacts(row)) ? row : null;
}

/** Each snippet's files with their contents, in order (the snippets were found readable first). */
export async function filesOfSnippets(ctx: RequestContext, snippetIds: readonly number[]): Promise<SnippetFile[][]> {
  const files = await findFilesOfSnippets(ctx.db, snippetIds);
  return byParent(snippetIds, files, (f) => f.snippetId).map((list) => list.map(({ path, content }) => ({ path, content })));
}
