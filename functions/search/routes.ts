// GET /search, /groups/:id/search and /projects/:id/search (GitLab 13.6 lib/api/search.rb; the `-/search` spellings
// too). Instance and group searches paginate without counting, as GitLab's SearchResults do (no X-Total).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginateWithoutCount } from '../lib/pagination.ts';
import { params, path, schema, type Output } from '../lib/validate.ts';
import { GlobalSearchInput, GroupSearchInput, ProjectSearchInput, toSearchResult } from './schemas.ts';
import { search, type SearchWhere } from './service.ts';

export const searchRoutes = new Hono<AppEnv>();

const GroupPath = schema(() => z.object({ id: groupRef() }));
const ProjectPath = schema(() => z.object({ id: projectRef() }));

async function present(c: Context<AppEnv>, where: SearchWhere, input: Output<typeof ProjectSearchInput> | Output<typeof GlobalSearchInput>) {
  const { ctx } = c.var;
  const results = await search({ ctx, input: { where, params: input } });
  const page = pageRequest(input);
  const rows = results.count ? await paginate(c, page, results.fetch, results.count) : await paginateWithoutCount(c, page, results.fetch);
  return c.json(rows.map((r) => toSearchResult(r, ctx.config)));
}

searchRoutes.get('/search', params(GlobalSearchInput), (c) => present(c, { kind: 'all' }, c.req.valid('query')));

for (const route of ['/groups/:id/search', '/groups/:id/-/search']) {
  searchRoutes.get(route, path(GroupPath), params(GroupSearchInput), (c) =>
    present(c, { kind: 'group', ref: c.req.valid('param').id }, c.req.valid('query') as Output<typeof GlobalSearchInput>),
  );
}

for (const route of ['/projects/:id/search', '/projects/:id/-/search']) {
  searchRoutes.get(route, path(ProjectPath), params(ProjectSearchInput), (c) =>
    present(c, { kind: 'project', ref: c.req.valid('param').id }, c.req.valid('query')),
  );
}
