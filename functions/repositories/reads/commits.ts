// Commit reads (GitLab 13.6 lib/api/commits.rb): the log page and a single commit. The project is one statement and
// the page one more (repositories/reads.ts resolves the revision and counts the total inside it), so a page of 100
// commits costs 3 queries with the token's.
import { commitsByOids, logGraph } from '../../../db/queries/repositories/log-graph.ts';
import { logPage, resolveRevision } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import type { CommitView } from '../entities.ts';
import type { ListCommitsParams } from '../schemas.ts';
import { topoOrder } from '../store/topo-order.ts';
import { commitView, projectFor, type RepositoryProject } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface CommitPage {
  commits: CommitView[];
  /** Every commit the listing has; undefined when the page (past the end) could not tell. */
  total: number | undefined;
}

/**
 * GET repository/commits: `ref_name` or the default branch (HEAD), or every ref with `all` (ref_name ignored:
 * `git log --all`), `path`, `since`/`until` (the committer date, as git's --since/--until),
 * `first_parent`, `order` (`default`: newest committed first; `topo`: git's --topo-order). A ref that names nothing
 * lists nothing (GitLab answers `[]`, as for an empty repository). The default order is one statement per page with
 * its total; topo reads the walk's graph (one light row per commit) and then the page's commits.
 */
export async function listCommits({ ctx, input }: Verb<{ project: Ref | null; params: ListCommitsParams }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const p = input.params;
  const projectId = found.context.projectId;
  // Grape's `params[:ref_name].presence`: a blank ref name is the default branch.
  const rev = p.all ? null : p.ref_name?.trim() ? p.ref_name : 'HEAD';
  const options = { projectId, rev, path: p.path || undefined, firstParent: p.first_parent, since: p.since, until: p.until };
  let topo: Promise<string[]> | undefined;
  const fetch = async (limit: number, offset: number): Promise<CommitPage> => {
    if (p.order === 'topo') {
      topo ??= logGraph(ctx.db, options).then((graph) =>
        topoOrder(graph ?? [])
          .filter((n) => n.listed)
          .map((n) => n.oid),
      );
      const listed = await topo;
      const commits = await commitsByOids(ctx.db, projectId, listed.slice(offset, offset + limit));
      return { commits: commits.map(commitView), total: listed.length };
    }
    const page = await logPage(ctx.db, { ...options, limit, offset });
    if (!page) return { commits: [], total: 0 };
    return { commits: page.commits.map(commitView), total: page.total };
  };
  return { ...found, fetch };
}

/** GET repository/commits/:sha: any revision GitLab's `project.commit(sha)` takes; 404 `Commit Not Found`. */
export async function getCommit({ ctx, input }: Verb<{ project: Ref | null; sha: string }>): Promise<RepositoryProject & { commit: CommitView }> {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const info = await resolveRevision(ctx.db, found.context.projectId, input.sha);
  if (!info) throw notFound('Commit');
  return { ...found, commit: commitView(info) };
}
