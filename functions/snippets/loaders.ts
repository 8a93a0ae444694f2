// The snippets' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { filesOfSnippets, snippetPagesOf, type SnippetFinderParams } from './reads.ts';

export const snippetLoaders = (ctx: RequestContext) => ({
  /** User.snippets / Project.snippets pages by author / project id. */
  snippetPages: perParent(
    (parentIds: number[], a: { parent: 'authorId' | 'projectId'; params: Omit<SnippetFinderParams, 'authorId' | 'projectId'>; page: KeysetPage }) =>
      snippetPagesOf(ctx, a.parent, parentIds, a.params, a.page),
  ),
  /** A snippet's files with their contents, in order, by snippet id. */
  snippetFiles: each((ids: readonly number[]) => filesOfSnippets(ctx, ids)),
});
