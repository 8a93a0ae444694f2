// Batched repository reads for GraphQL (loaders.ts wraps them): each verb takes many parents at once and
// applies the policy the REST reads apply (`download_code`). Project.repository under a list of projects is one
// statement; a tree is one listing statement per distinct (project, ref, path, recursive), plus one for its
// directories' flat paths, never one per entry; a tree's last commit one log statement; the authors of any number of
// commits one statement; the `.gitmodules` of any number of trees (their submodules' links) one statement.
import { findRepositoryStates, findUsersByAnyEmail, flatPathSuffixes } from '../../db/queries/repositories/batch.ts';
import { blobsAtPaths, logPage, smallBlobs, treePage } from '../../db/queries/repositories/reads.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import { projectWebUrl } from '../projects/schemas.ts';
import type { CommitView, RepositoryContext } from './entities.ts';
import { commitView } from './service.ts';
import { parseGitmodules } from './reads/submodule-links.ts';

/** Where a repository's URLs hang (web URLs and paths) and which project it is. */
export interface RepositoryLocation extends RepositoryContext {
  fullPath: string;
}

/** Project.repository: GitLab's Repository type, for a project whose code the actor may read. */
export interface RepositoryModel {
  repo: RepositoryLocation;
  rootRef: string | null;
  exists: boolean;
  empty: boolean;
}

/** One entry of a tree listing; `position` (1-based, in the listing's order) is its connection cursor. */
export interface TreeEntryModel {
  repo: RepositoryLocation;
  /** The commit the tree's ref resolved to: the entries' web URLs name it (TreeEntryPresenter's `commit_id`). */
  commitOid: string;
  oid: string;
  name: string;
  path: string;
  /** The path down single-directory chains (Gitaly's flat_path); the path itself for anything else. */
  flatPath: string;
  mode: string;
  type: 'tree' | 'blob' | 'commit';
  position: number;
}

/** Repository.tree: the listing of a directory at the commit a ref names. */
export interface TreeModel {
  repo: RepositoryLocation;
  commitOid: string;
  path: string;
  entries: TreeEntryModel[];
}

export interface CommitModel {
  repo: RepositoryLocation;
  view: CommitView;
}

export interface BranchModel {
  repo: RepositoryLocation;
  name: string;
  commit: CommitView;
}

export const repositoryLocation = (ctx: RequestContext, view: ProjectView): RepositoryLocation => ({
  projectId: view.project.id,
  projectWebUrl: projectWebUrl(ctx.config, view.project),
  fullPath: view.project.pathWithNamespace,
});

/**
 * The repositories of these projects (null where the actor may not read the code: the Repository type's
 * `authorize :download_code`). `exists`: the project has its repository row (every project gets one when created);
 * `empty`: no branch yet (Repository#empty?).
 */
export async function repositoriesOf(ctx: RequestContext, views: readonly ProjectView[]): Promise<Array<RepositoryModel | null>> {
  const allowed = views.map((v) => can(ctx.actor, 'project:download_code', projectFacts(v)));
  const states = new Map(
    (
      await findRepositoryStates(
        ctx.db,
        views.filter((_v, i) => allowed[i]).map((v) => v.project.id),
      )
    ).map((s) => [s.projectId, s]),
  );
  return views.map((view, i) => {
    if (!allowed[i]) return null;
    const state = states.get(view.project.id);
    return { repo: repositoryLocation(ctx, view), rootRef: state?.defaultBranch ?? null, exists: state !== undefined, empty: !state?.hasBranches };
  });
}

export interface TreeKey {
  repo: RepositoryLocation;
  /** Repository.tree's `ref`; `head` (its default) is the default branch. */
  ref: string;
  path: string;
  recursive: boolean;
}

/**
 * How many entries one tree listing reads at most: GitLab lists a tree whole (Gitaly's GetTreeEntries), and so do we
 * up to this bound, in one statement, paging the three connections in memory.
 */
export const TREE_LISTING_LIMIT = 10_000;

const utf8 = new TextDecoder();

/**
 * The trees these keys name (null when the ref names no commit, as REST's `Tree Not Found`; a path that is no
 * directory lists nothing), in GitLab's order: trees, then blobs, then submodules. A listing that is not recursive
 * has its directories' flat paths (Gitaly computes them only then): one more statement when it has directories.
 */
export function treesOf(ctx: RequestContext, keys: readonly TreeKey[]): Promise<Array<TreeModel | null>> {
  return Promise.all(
    keys.map(async (k): Promise<TreeModel | null> => {
      const rev = k.ref === 'head' || k.ref === '' ? 'HEAD' : k.ref;
      const page = await treePage(ctx.db, { projectId: k.repo.projectId, rev, path: k.path, recursive: k.recursive, limit: TREE_LISTING_LIMIT, offset: 0 });
      if (!page) return null;
      const listed = page.entries ?? [];
      const dirs = k.recursive ? [] : listed.filter((e) => e.type === 'tree').map((e) => e.oid);
      const suffixes = await flatPathSuffixes(ctx.db, k.repo.projectId, dirs);
      const entries = listed.map((e, i): TreeEntryModel => {
        const path = utf8.decode(e.path);
        const suffix = e.type === 'tree' ? suffixes.get(e.oid) : undefined;
        return {
          repo: k.repo,
          commitOid: page.commitOid,
          oid: e.oid,
          name: utf8.decode(e.name),
          path,
          flatPath: suffix ? path + utf8.decode(suffix) : path,
          mode: e.mode,
          type: e.type,
          position: i + 1,
        };
      });
      return { repo: k.repo, commitOid: page.commitOid, path: k.path, entries };
    }),
  );
}

/** The last commit that touched each (commit, path) (LastCommitResolver: the whole history for the root). */
export function lastCommitsOf(
  ctx: RequestContext,
  keys: ReadonlyArray<{ projectId: number; commitOid: string; path: string }>,
): Promise<Array<CommitView | null>> {
  return Promise.all(
    keys.map(async (k) => {
      const path = k.path.replace(/^\/+|\/+$/g, '');
      const log = await logPage(ctx.db, { projectId: k.projectId, rev: k.commitOid, path: path || undefined, limit: 1, offset: 0 });
      const info = log?.commits[0];
      return info ? commitView(info) : null;
    }),
  );
}

/** Gitaly's GetLFSPointers reads no blob larger than this: a pointer file is a few lines. */
const LFS_POINTER_MAX_SIZE = 200;

/**
 * Blob.lfsOid by (project, blob): the sha256 an LFS pointer names (Blob#lfs_oid: text starting with git-lfs's
 * version key, the id after `sha256:`), null for any other blob. One statement per project, small blobs only.
 */
export async function lfsOidsOf(ctx: RequestContext, keys: ReadonlyArray<{ projectId: number; oid: string }>): Promise<Array<string | null>> {
  const byProject = new Map<number, string[]>();
  for (const k of keys) byProject.set(k.projectId, [...(byProject.get(k.projectId) ?? []), k.oid]);
  const found = new Map<string, string>();
  await Promise.all(
    [...byProject].map(async ([projectId, oids]) => {
      for (const blob of await smallBlobs(ctx.db, projectId, [...new Set(oids)], LFS_POINTER_MAX_SIZE)) {
        const text = new TextDecoder().decode(blob.data);
        const oid = text.startsWith('version https://git-lfs.github.com/spec') ? /sha256:([0-9a-f]{64})/.exec(text)?.[1] : undefined;
        if (oid) found.set(`${projectId}:${blob.oid}`, oid);
      }
    }),
  );
  return keys.map((k) => found.get(`${k.projectId}:${k.oid}`) ?? null);
}

/** How much of `.gitmodules` GitLab reads (Gitlab::Git::Blob::MAX_DATA_DISPLAY_SIZE, 10 MiB). */
const GITMODULES_MAX_SIZE = 10 * 1024 * 1024;

/**
 * Submodule urls by path from the `.gitmodules` at the root of each (project, commit): a tree's commit, so every
 * submodule of a listing (whatever the directory listed) reads the same file, as Repository#submodule_urls_for
 * reads it at `tree.sha`. Null where the commit has no such blob. The keys come from trees the actor was allowed to
 * list (`download_code`, checked by repositoriesOf): no policy of its own. One statement for all the keys.
 */
export async function gitmodulesOf(
  ctx: RequestContext,
  keys: ReadonlyArray<{ projectId: number; commitOid: string }>,
): Promise<Array<Map<string, string | undefined> | null>> {
  const found = await blobsAtPaths(
    ctx.db,
    keys.map((k) => ({ ...k, path: '.gitmodules' })),
    GITMODULES_MAX_SIZE,
  );
  const parsed = new Map(found.map((f) => [`${f.projectId}:${f.commitOid}`, parseGitmodules(utf8.decode(f.data))]));
  return keys.map((k) => parsed.get(`${k.projectId}:${k.commitOid}`) ?? null);
}

/** The users commits name as their authors, by email (Commit#author: User.find_by_any_email), null when none. */
export async function commitAuthorsByEmail(ctx: RequestContext, addresses: readonly string[]): Promise<Array<UserRow | null>> {
  const found = new Map((await findUsersByAnyEmail(ctx.db, addresses)).map((m) => [m.email, m.user]));
  return addresses.map((email) => {
    const user = found.get(email.toLowerCase());
    return user && can(ctx.actor, 'user:read', { kind: 'user', id: user.id, state: user.state, privateProfile: user.privateProfile }) ? user : null;
  });
}
