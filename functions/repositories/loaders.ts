// The repositories' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { ProjectModel } from '../projects/models.ts';
import { commitAuthorsByEmail, gitmodulesOf, lastCommitsOf, lfsOidsOf, repositoriesOf, treesOf, type TreeKey } from './reads.ts';

export const repositoryLoaders = (ctx: RequestContext) => ({
  /** Project.repository by project (null where the actor may not read the code). */
  repository: each(
    (views: readonly ProjectModel[]) => repositoriesOf(ctx, views),
    (v) => v.project.id,
  ),
  /** Repository.tree by (project, ref, path, recursive): the whole listing, once per distinct key. */
  tree: each(
    (keys: readonly TreeKey[]) => treesOf(ctx, keys),
    (k) => stableKey({ project: k.repo.projectId, ref: k.ref, path: k.path, recursive: k.recursive }),
  ),
  /** Tree.lastCommit by (project, commit, path). */
  lastCommit: each((keys: ReadonlyArray<{ projectId: number; commitOid: string; path: string }>) => lastCommitsOf(ctx, keys), stableKey),
  /** Blob.lfsOid by (project, blob): every blob of a page in one statement. */
  lfsOid: each((keys: ReadonlyArray<{ projectId: number; oid: string }>) => lfsOidsOf(ctx, keys), stableKey),
  /** Submodule urls by path from `.gitmodules` by (project, commit): every tree of a request in one statement. */
  gitmodules: each((keys: ReadonlyArray<{ projectId: number; commitOid: string }>) => gitmodulesOf(ctx, keys), stableKey),
  /** Commit.author by the commit's author email (case-insensitive: the verb lower-cases). */
  commitAuthor: each(
    (emails: readonly string[]) => commitAuthorsByEmail(ctx, emails),
    (e) => e.toLowerCase(),
  ),
});
