// GET repository/contributors (GitLab 13.6 repositories.rb, Repository#contributors): the authors of the default
// branch's 2,000 newest non-merge commits, one per email, ordered by Commit.order_by. Entities::Contributor's
// `additions` and `deletions` are always 0 in 13.6 (deprecated in 13.4: Gitaly never filled them in).
import * as z from 'zod/mini';
import { contributorRows } from '../../../db/queries/repositories/contributors.ts';
import type { RequestContext } from '../../lib/context.ts';
import type { Ref } from '../../lib/ids.ts';
import { paginationParams } from '../../lib/pagination.ts';
import { oneOf, schema, type Output } from '../../lib/validate.ts';
import { orderContributors } from './contributors-order.ts';
import { projectFor, type RepositoryProject } from '../service.ts';

/** `self.commits(nil, limit: 2000, offset: 0, skip_merges: true)`. */
const COMMIT_LIMIT = 2000;

export const ContributorsInput = schema(() =>
  z.object({
    ...paginationParams(),
    order_by: z._default(oneOf(['email', 'name', 'commits']), 'commits'),
    sort: z._default(oneOf(['asc', 'desc']), 'asc'),
  }),
);
export type ContributorsParams = Output<typeof ContributorsInput>;

/** `before { authorize! :download_code, user_project }`: routes call it ahead of reading parameters, as Grape does. */
export const contributorsProject = (ctx: RequestContext, ref: Ref | null) => projectFor(ctx, ref, 'project:download_code');

export async function listContributors({ ctx, input }: { ctx: RequestContext; input: { found: RepositoryProject; params: ContributorsParams } }) {
  const rows = await contributorRows(ctx.db, input.found.context.projectId, COMMIT_LIMIT);
  return orderContributors(rows, input.params.order_by, input.params.sort);
}

/** Entities::Contributor. */
export const toContributor = (c: { name: string; email: string; commits: number }) => ({
  name: c.name,
  email: c.email,
  commits: c.commits,
  additions: 0,
  deletions: 0,
});
