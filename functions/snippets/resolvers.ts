// GraphQL over the snippets domain: Query.snippets (and User.snippets, Project.snippets), the Snippet and SnippetBlob
// types and createSnippet (13.6 shapes). Lists are the policy's visibleSnippetsFilter in SQL, one query per page
// (author, project facts and file paths joined); the blobs' contents come from one DataLoader query per page; notes
// and discussions are the notes domain's. createSnippet is the REST service verb.
import { GraphQLError } from 'graphql';
import type { SnippetFactsRow } from '../../db/queries/snippets.ts';
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import type { SnippetBlobModel } from './models.ts';
import type { Config } from '../lib/context.ts';
import type { RequestContext } from '../lib/context.ts';
import { can, visibilityName, type ProjectSnippetFacts, type VisibilityName } from '../lib/policy.ts';
import { discussionsOf, notesOf } from '../notes/resolvers.ts';
import { snippetNoteable as asNoteable, type Noteable } from '../notes/service.ts';
import { readableSnippetById, snippetRowFacts, snippetsPage, type SnippetFinderParams } from './reads.ts';
import { snippetWebUrl, toSnippet } from './schemas.ts';
import { createSnippet } from './create.ts';
import type { SnippetOwner } from './service.ts';
import { renderPlainText } from '../lib/format.ts';

/** The files' raw URLs as REST's entity gives them (`/-/snippets/:id/raw/:ref/:path`), by path. */
const rawUrls = (s: SnippetFactsRow, config: Config) => new Map(toSnippet(s, config).files.map((f) => [f.path, f.raw_url]));

/** Gitlab::Highlight with the plain-text lexer: one `<span id="LCn" class="line" lang="plaintext">` per line. */
function plainHighlight(content: string) {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const lines = content.replace(/\r?\n$/, '').split(/\r?\n/);
  return lines.map((line, i) => `<span id="LC${i + 1}" class="line" lang="plaintext">${escape(line)}</span>`).join('\n');
}

const utf8 = new TextEncoder();

/**
 * A project snippet as the notes domain's noteable (its project loaded once per page); personal snippets carry no
 * notes here (null).
 */
async function snippetNoteable(s: SnippetFactsRow, { loaders }: GraphQLContext): Promise<Noteable | null> {
  if (s.snippet.projectId === null) return null;
  const project = await loaders.projectView.load(s.snippet.projectId);
  if (!project) return null;
  return asNoteable(project, s.snippet);
}

interface FinderArgs extends ConnectionArgs {
  ids?: readonly number[] | null | undefined;
  authorId?: number | null | undefined;
  projectId?: number | null | undefined;
  type?: 'personal' | 'project' | null | undefined;
  explore?: boolean | null | undefined;
  visibility?: VisibilityName | null | undefined;
}

const finderParams = (args: FinderArgs): SnippetFinderParams => ({
  ids: args.ids ?? undefined,
  authorId: args.authorId ?? undefined,
  projectId: args.projectId ?? undefined,
  type: args.type ?? undefined,
  explore: args.explore ?? undefined,
  visibility: args.visibility ?? undefined,
});

/** SnippetsFinder through one keyset page, in its `fresh` order (newest first: ids follow creation). */
function findSnippets(ctx: RequestContext, args: FinderArgs) {
  const params = finderParams(args);
  return keysetConnection<SnippetFactsRow>(
    args,
    'desc',
    (s) => s.snippet.id,
    (page) => snippetsPage(ctx, params, page),
  );
}

/**
 * The same finder scoped to an author or a project (User.snippets, Project.snippets), through the per-request loader:
 * under each of a list of users or projects, one query for all of them.
 */
function findSnippetsOf({ loaders }: GraphQLContext, parent: 'authorId' | 'projectId', parentId: number, args: FinderArgs) {
  const { authorId: _a, projectId: _p, ...params } = finderParams(args);
  return keysetConnection<SnippetFactsRow>(
    args,
    'desc',
    (s) => s.snippet.id,
    async (page) => [...(await loaders.snippetPages.load({ parent: parentId, args: { parent, params, page } }))],
  );
}

export const snippetResolvers: Resolvers = {
  Query: {
    snippets: (_root, args, { ctx }) => {
      // Resolvers::SnippetsResolver
      if (args.authorId != null && args.projectId != null) throw new GraphQLError('Filtering by both an author and a project is not supported');
      return findSnippets(ctx, args);
    },
  },
  // Resolvers::Users::SnippetsResolver and Resolvers::Projects::SnippetsResolver: the same finder, scoped.
  User: {
    snippets: (user, args, context) => findSnippetsOf(context, 'authorId', user.id, args),
  },
  Project: {
    snippets: (project, args, context) => findSnippetsOf(context, 'projectId', project.project.id, args),
  },
  Mutation: {
    createSnippet: async (_root, { input }, { ctx }) => {
      const owner: SnippetOwner = input.projectPath != null ? { kind: 'project', ref: { path: input.projectPath } } : { kind: 'personal' };
      const actions = input.blobActions?.map((a) => ({
        action: a.action,
        file_path: a.filePath,
        ...(a.previousPath != null ? { previous_path: a.previousPath } : {}),
        ...(a.content != null ? { content: a.content } : {}),
      }));
      // uploadedFiles (moving description attachments into the snippet) has nothing to move here: there are no uploads.
      const params = { title: input.title, description: input.description ?? null, visibility: input.visibilityLevel, actions };
      // errors_on_object: the model's full messages one by one (graphql/errors.ts).
      const { value: created, errors } = await mutation(() => createSnippet({ ctx, input: { owner, params } }));
      const snippet = created ? await readableSnippetById(ctx, created.snippet.id) : null;
      return { snippet, spam: false, errors, clientMutationId: input.clientMutationId ?? null };
    },
  },
  Snippet: {
    id: (s) => toGlobalId(s.snippet.type, s.snippet.id),
    title: (s) => s.snippet.title,
    description: (s) => s.snippet.description,
    descriptionHtml: (s) => renderPlainText(s.snippet.description),
    fileName: (s) => s.files[0] ?? null,
    visibilityLevel: (s) => visibilityName(s.snippet.visibilityLevel),
    author: (s) => s.author,
    project: (s, _a, { loaders }) => (s.snippet.projectId === null ? null : loaders.projectView.load(s.snippet.projectId)),
    webUrl: (s, _a, { ctx }) => snippetWebUrl(ctx.config, s),
    rawUrl: (s, _a, { ctx }) => `${snippetWebUrl(ctx.config, s)}/raw`,
    createdAt: (s) => s.snippet.createdAt.toISOString(),
    updatedAt: (s) => s.snippet.updatedAt.toISOString(),
    blob: async (s, _a, { loaders }) => {
      const [first] = await loaders.snippetFiles.load(s.snippet.id);
      return { snippet: s, path: first?.path ?? '', content: first?.content ?? '', position: 1 };
    },
    blobs: async (s, args, { loaders }) => {
      const files = await loaders.snippetFiles.load(s.snippet.id);
      const all: SnippetBlobModel[] = files.map((f, i) => ({ snippet: s, path: f.path, content: f.content, position: i + 1 }));
      const paths = args.paths ? new Set(args.paths) : null;
      return arrayConnection(paths ? all.filter((b) => paths.has(b.path)) : all, args, (b) => b.position);
    },
    notes: async (s, args, context) => {
      const noteable = await snippetNoteable(s, context);
      return noteable ? notesOf(context, noteable, args) : arrayConnection([], args, () => 0);
    },
    discussions: async (s, args, context) => {
      const noteable = await snippetNoteable(s, context);
      return noteable ? discussionsOf(context, noteable, args) : arrayConnection([], args, () => 0);
    },
    userPermissions: (s, _a, { ctx }) => {
      const facts = snippetRowFacts(s);
      const admin = can(ctx.actor, 'snippet:update', facts);
      return {
        readSnippet: can(ctx.actor, 'snippet:read', facts),
        updateSnippet: admin,
        adminSnippet: admin,
        awardEmoji: can(ctx.actor, 'awardable:award', facts),
        // Notes are taken on project snippets only (the notes domain's noteables).
        createNote: facts.project !== null && can(ctx.actor, 'noteable:create_note', facts as ProjectSnippetFacts),
        // Spam reporting (report_snippet) is not offered by this service.
        reportSnippet: false,
      };
    },
  },
  SnippetBlob: {
    binary: () => false,
    externalStorage: () => null,
    mode: () => '100644',
    name: (b) => b.path.split('/').pop() ?? b.path,
    path: (b) => b.path,
    plainData: (b) => plainHighlight(b.content),
    rawPath: (b, _a, { ctx }) => {
      const url = rawUrls(b.snippet, ctx.config).get(b.path) ?? `${snippetWebUrl(ctx.config, b.snippet)}/raw`;
      return new URL(url).pathname;
    },
    renderedAsText: () => true,
    // BlobViewer::Text: loaded asynchronously, never collapsed or too large within the 1 MiB content limit.
    simpleViewer: () => ({
      type: 'simple',
      fileType: 'text',
      collapsed: false,
      tooLarge: false,
      loadAsync: true,
      loadingPartialName: 'loading',
      renderError: null,
    }),
    size: (b) => utf8.encode(b.content).length,
  },
};
