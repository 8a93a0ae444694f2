// Batched label reads (GraphQL's Project.label/labels under one or many projects, already found readable): one
// statement for every project asked.
import { countProjectLabelsOfProjects, findProjectLabelsByTitles, listProjectLabelsPages } from '../../db/queries/labels/of-projects.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';

/** A keyset page of each project's own labels, optionally matching `search`. */
export const projectLabelPages = (ctx: RequestContext, projectIds: readonly number[], search: string | undefined, page: KeysetPage) =>
  listProjectLabelsPages(ctx.db, projectIds, search, page);

/** How many of each project's own labels match `search`. */
export const projectLabelCounts = (ctx: RequestContext, projectIds: readonly number[], search: string | undefined) =>
  countProjectLabelsOfProjects(ctx.db, projectIds, search);

/** A project's own label by title, for each (project, title) asked (undefined when none). */
export const projectLabelsByTitles = (ctx: RequestContext, pairs: ReadonlyArray<{ projectId: number; title: string }>) =>
  findProjectLabelsByTitles(ctx.db, pairs);
