// Batched milestone reads (GraphQL's Project.milestones under one or many projects, already found readable).
import { listProjectMilestonesPages } from '../../db/queries/milestones.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';

/** A keyset page of each project's own milestones: one statement. */
export const projectMilestonePages = (ctx: RequestContext, projectIds: readonly number[], page: KeysetPage) =>
  listProjectMilestonesPages(ctx.db, projectIds, page);
