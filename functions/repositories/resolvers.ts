// GraphQL over the repositories domain (GitLab 13.6): Project.repository, Repository.tree, Tree's connections, the
// entry types, Commit, Branch, commitCreate and createBranch. Reads go through reads.ts (per-request loaders: one
// statement per tree, never per entry); the mutations call the REST write verbs, so policy, validation, limits and
// push events are theirs.
import { arrayConnection } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation } from '../graphql/errors.ts';
import type { CommitAction, CommitCreateInput, Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import { latestPipeline, pipelineConnection } from '../pipelines/resolvers.ts';
import type { TreeEntryModel } from './models.ts';
import { DomainError, invalidMessage } from '../lib/errors.ts';
import { iso, renderPlainLine, renderPlainText } from '../lib/format.ts';
import { toValidationError } from '../lib/validate.ts';
import { avatarUrl } from '../users/schemas.ts';
import { createBranch } from './writes/branches.ts';
import { createCommit } from './writes/create-commit.ts';
import { commitDescription, commitTitle, commitWebUrl, type CommitView } from './entities.ts';
import { repositoryLocation, type CommitModel, type RepositoryLocation } from './reads.ts';
import { CreateCommitInput, type CreateCommitParams } from './schemas.ts';
import { projectFor } from './service.ts';
import { instanceOf, submoduleLinks, type SubmoduleLinks } from './reads/submodule-links.ts';

/** A web URL's path (GitLab's `web_path`: the URL helpers' `_path`, relative root included). */
const pathOf = (url: string) => new URL(url).pathname;

/** Where a commit's pipelines are listed: its project (as the actor sees it) and its sha. */
const commitPipelineParent = async (c: CommitModel, { loaders }: GraphQLContext) => {
  const project = await loaders.projectView.load(c.repo.projectId);
  return project ? { project, sha: c.view.oid, ref: null } : null;
};

/**
 * `blob`/`tree` web URL of an entry at the tree's commit, `<project>/-/<kind>/<sha>/<path>` (TreeEntryPresenter and
 * BlobPresenter: project_tree_url / project_blob_url of `File.join(commit_id, path)`).
 */
const entryUrl = (e: TreeEntryModel, kind: 'blob' | 'tree') => `${e.repo.projectWebUrl}/-/${kind}/${e.commitOid}/${e.path}`;

/** The fields every entry type shares (Types::Tree::EntryType), its global id under its representation's name. */
const entryFields = (representation: 'TreeEntry' | 'SubmoduleTreeEntry') => ({
  id: (e: TreeEntryModel) => toGlobalId(`Gitlab::Graphql::Representation::${representation}`, e.oid),
  sha: (e: TreeEntryModel) => e.oid,
  name: (e: TreeEntryModel) => e.name,
  path: (e: TreeEntryModel) => e.path,
  flatPath: (e: TreeEntryModel) => e.flatPath,
  type: (e: TreeEntryModel) => e.type,
});

const commitModel = (repo: RepositoryLocation, view: CommitView): CommitModel => ({ repo, view });

/**
 * A submodule's links (Gitlab::SubmoduleLinks#for at the tree's commit): the `.gitmodules` of every tree the
 * request lists is read in one statement, by the loader.
 */
async function submoduleLinksOf(e: TreeEntryModel, { ctx, loaders }: GraphQLContext): Promise<SubmoduleLinks> {
  const urls = await loaders.gitmodules.load({ projectId: e.repo.projectId, commitOid: e.commitOid });
  return submoduleLinks({ id: e.oid, url: urls?.get(e.path), projectPath: e.repo.fullPath, instance: instanceOf(ctx.config.publicUrl) });
}

/**
 * commitCreate's input as POST repository/commits' parameters, parsed by that route's schema: the rules of an
 * action (what each mode requires, what it ignores, the encoding's default) are the REST API's, written once.
 */
function commitParams(input: CommitCreateInput): CreateCommitParams {
  const parsed = CreateCommitInput().safeParse({
    branch: input.branch,
    commit_message: input.message,
    // Files::MultiService gets `start_branch: start_branch || branch`: absent is the branch itself.
    start_branch: input.startBranch ?? undefined,
    actions: input.actions.map((a: CommitAction) => ({
      action: a.action.toLowerCase(),
      file_path: a.filePath,
      previous_path: a.previousPath ?? undefined,
      content: a.content ?? undefined,
      encoding: a.encoding?.toLowerCase(),
      last_commit_id: a.lastCommitId ?? undefined,
      execute_filemode: a.executeFilemode ?? undefined,
    })),
  });
  if (!parsed.success) throw toValidationError(parsed.error.issues);
  return parsed.data;
}

/**
 * GitLab authorizes these mutations with `push_code` on the project first (a missing project or a refusal: the
 * top-level resource error); what the services then refuse, a protected branch included, is the payload's `errors`.
 * The write verbs check the branch rule themselves and throw `forbidden` with its words: that one is a refusal here.
 */
async function write<T>(run: () => Promise<T>): Promise<{ value: T | null; errors: string[] }> {
  return mutation(async () => {
    try {
      return await run();
    } catch (e) {
      if (e instanceof DomainError && e.problem.code === 'forbidden' && e.problem.reason) throw invalidMessage(e.problem.reason);
      throw e;
    }
  });
}

export const repositoryResolvers: Resolvers = {
  Project: {
    repository: (project, _a, { loaders }) => loaders.repository.load(project),
  },
  Repository: {
    rootRef: (r) => r.rootRef,
    exists: (r) => r.exists,
    empty: (r) => r.empty,
    // TreeResolver: nothing to list in a repository that does not exist.
    tree: (r, args, { loaders }) =>
      r.exists ? loaders.tree.load({ repo: r.repo, ref: args.ref ?? 'head', path: args.path ?? '', recursive: args.recursive ?? false }) : null,
  },
  Tree: {
    lastCommit: async (t, _a, { loaders }) => {
      const view = await loaders.lastCommit.load({ projectId: t.repo.projectId, commitOid: t.commitOid, path: t.path });
      return view && commitModel(t.repo, view);
    },
    trees: (t, args) =>
      arrayConnection(
        t.entries.filter((e) => e.type === 'tree'),
        args,
        (e) => e.position,
      ),
    blobs: (t, args) =>
      arrayConnection(
        t.entries.filter((e) => e.type === 'blob'),
        args,
        (e) => e.position,
      ),
    submodules: (t, args) =>
      arrayConnection(
        t.entries.filter((e) => e.type === 'commit'),
        args,
        (e) => e.position,
      ),
  },
  // Entry fields (Types::Tree::EntryType): `sha` is the object's id (`method: :id`, whatever its description says).
  TreeEntry: {
    ...entryFields('TreeEntry'),
    webUrl: (e) => entryUrl(e, 'tree'),
    webPath: (e) => pathOf(entryUrl(e, 'tree')),
  },
  Blob: {
    ...entryFields('TreeEntry'),
    mode: (e) => e.mode.padStart(6, '0'),
    lfsOid: (e, _a, { loaders }) => loaders.lfsOid.load({ projectId: e.repo.projectId, oid: e.oid }),
    webUrl: (e) => entryUrl(e, 'blob'),
    webPath: (e) => pathOf(entryUrl(e, 'blob')),
  },
  Submodule: {
    ...entryFields('SubmoduleTreeEntry'),
    // SubmoduleTreeEntry: the first and the last of the helper's [web, tree] for the url .gitmodules gives the path.
    webUrl: async (e, _a, context) => (await submoduleLinksOf(e, context)).web,
    treeUrl: async (e, _a, context) => (await submoduleLinksOf(e, context)).tree,
  },
  Entry: {
    __resolveType: (e) => (e.type === 'tree' ? 'TreeEntry' : e.type === 'commit' ? 'Submodule' : 'Blob'),
  },
  Commit: {
    id: (c) => toGlobalId('CommitPresenter', c.view.oid),
    sha: (c) => c.view.oid,
    title: (c) => commitTitle(c.view.message),
    titleHtml: (c) => renderPlainLine(commitTitle(c.view.message)),
    description: (c) => commitDescription(c.view.message),
    descriptionHtml: (c) => renderPlainText(commitDescription(c.view.message)),
    message: (c) => c.view.message,
    authoredDate: (c) => iso(c.view.authoredAt),
    authorName: (c) => c.view.authorName,
    author: (c, _a, { loaders }) => loaders.commitAuthor.load(c.view.authorEmail),
    // The author's own avatar when the email is a user's; no external avatar service is asked.
    authorAvatar: async (c, _a, { ctx, loaders }) => avatarUrl(ctx.config, (await loaders.commitAuthor.load(c.view.authorEmail))?.avatarUrl),
    webUrl: (c) => commitWebUrl(c.repo, c.view.oid),
    webPath: (c) => pathOf(commitWebUrl(c.repo, c.view.oid)),
    // Signatures are not verified yet.
    signatureHtml: () => null,
    // The commit's pipelines in its project (Commit#pipelines), newest first.
    pipelines: async (c, args, context) => pipelineConnection(context, 'commit', await commitPipelineParent(c, context), args),
    latestPipeline: async (c, args, context) => latestPipeline(context, 'commit', await commitPipelineParent(c, context), args),
  },
  Branch: {
    name: (b) => b.name,
    commit: (b) => commitModel(b.repo, b.commit),
  },
  Mutation: {
    commitCreate: async (_root, { input }, { ctx }) => {
      const project = { path: input.projectPath };
      const { value, errors } = await write(async () => {
        await projectFor(ctx, project, 'project:push_code');
        return createCommit({ ctx, input: { project, params: commitParams(input) } });
      });
      const commit = value ? commitModel({ ...value.context, fullPath: value.project.project.pathWithNamespace }, value.commit) : null;
      return { commit, errors, clientMutationId: input.clientMutationId ?? null };
    },
    createBranch: async (_root, { input }, { ctx }) => {
      const project = { path: input.projectPath };
      const { value, errors } = await write(() => createBranch({ ctx, input: { project, branch: input.name, ref: input.ref } }));
      const branch = value ? { repo: repositoryLocation(ctx, value.project), name: value.branch.name, commit: value.branch.commit } : null;
      return { branch, errors, clientMutationId: input.clientMutationId ?? null };
    },
  },
};
