// Batched project reads for GraphQL (Query.projects, Group/Namespace.projects under many groups, projects of
// members, issues and snippets under a page, open-issue counts): one query for every parent asked, the policy's
// visibility in SQL and its rules for what a count may include.
import { namespaceScope } from '../groups/lookups.ts';
import {
  findProjectViewsByIds,
  listProjectViewsPage,
  listProjectViewsPages,
  openIssuesCounts as countOpenIssues,
  type ProjectView,
} from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from './service.ts';

/** The projects the actor may read, by id, in the order asked (null when missing, deleted or hidden). */
export async function readableProjectsByIds(ctx: RequestContext, ids: readonly number[]): Promise<Array<ProjectView | null>> {
  const found = new Map((await findProjectViewsByIds(ctx.db, ctx.actor, ids)).map((v) => [v.project.id, v]));
  return ids.map((id) => found.get(id) ?? null);
}

/** ProjectsFinder's GraphQL parameters. */
export interface ProjectFinderParams {
  ids?: number[] | undefined;
  membership?: boolean | undefined;
  search?: string | undefined;
  /** Widen `search` to the namespace's path and name. */
  searchNamespaces?: boolean | undefined;
}

/** One keyset page of the readable projects (Query.projects). */
export const projectsPage = (ctx: RequestContext, params: ProjectFinderParams, page: KeysetPage) => listProjectViewsPage(ctx.db, ctx.actor, params, page);

/** A keyset page of each namespace's readable projects (with or without its subgroups'), in one statement. */
export const namespaceProjectPages = (
  ctx: RequestContext,
  parents: ReadonlyArray<{ id: number; subgroups: boolean }>,
  search: string | undefined,
  page: KeysetPage,
) =>
  listProjectViewsPages(
    ctx.db,
    ctx.actor,
    parents.map((p) => ({ namespaceIds: namespaceScope(p.id, p.subgroups), search })),
    page,
  );

/**
 * Open issues of each project (GitLab's OpenIssuesCountService): confidential ones count only for those who may
 * administer the project's issues (reporters and above).
 */
export async function openIssuesCounts(ctx: RequestContext, views: readonly ProjectView[]): Promise<number[]> {
  const counts = new Map(
    (
      await countOpenIssues(
        ctx.db,
        views.map((v) => v.project.id),
      )
    ).map((c) => [c.id, c]),
  );
  return views.map((v) => {
    const c = counts.get(v.project.id);
    if (!c) return 0;
    return can(ctx.actor, 'project:admin_issues', projectFacts(v)) ? c.all : c.public;
  });
}
