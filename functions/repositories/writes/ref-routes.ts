// Tags (GitLab 13.6 lib/api/tags.rb: the single read and the writes; the listing is in routes.ts), protected
// branches (lib/api/protected_branches.rb) and protected tags (lib/api/protected_tags.rb). Names in the path arrive URL-encoded (`%2F`, `%2A`) and Hono decodes them.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../../lib/context.ts';
import { projectRef } from '../../lib/ids.ts';
import { paginateArray } from '../../lib/pagination.ts';
import { params, path, schema } from '../../lib/validate.ts';
import { toTag } from '../entities.ts';
import { ListProtectedBranchesInput, ProtectBranchInput, toProtectedBranch } from '../protection/branch-schemas.ts';
import { getProtection, listProtections, protectBranch, unprotectBranch } from '../protection/branches.ts';
import { ListProtectedTagsInput, ProtectTagInput, toProtectedTag } from '../protection/tag-schemas.ts';
import { getTagProtection, listTagProtections, protectTag, unprotectTag } from '../protection/tags.ts';
import { CreateTagInput } from '../schemas.ts';
import { createTag, deleteTag, getTag } from './tags.ts';

export const refRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const TagPath = schema(() => z.object({ id: projectRef(), tag_name: z.string() }));
const NamePath = schema(() => z.object({ id: projectRef(), name: z.string() }));

const tags = '/projects/:id/repository/tags';
const protectedBranches = '/projects/:id/protected_branches';
const protectedTags = '/projects/:id/protected_tags';

refRoutes.get(`${tags}/:tag_name`, path(TagPath), async (c) => {
  const { id, tag_name } = c.req.valid('param');
  const found = await getTag({ ctx: c.var.ctx, input: { project: id, tag: tag_name } });
  return c.json(toTag(found.tag, found.context));
});

refRoutes.post(tags, path(ProjectPath), params(CreateTagInput), async (c) => {
  const found = await createTag({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: c.req.valid('query') } });
  return c.json(toTag(found.tag, found.context), 201);
});

refRoutes.delete(`${tags}/:tag_name`, path(TagPath), async (c) => {
  const { id, tag_name } = c.req.valid('param');
  await deleteTag({ ctx: c.var.ctx, input: { project: id, tag: tag_name } });
  return c.body(null, 204);
});

refRoutes.get(protectedBranches, path(ProjectPath), params(ListProtectedBranchesInput), async (c) => {
  const input = c.req.valid('query');
  const all = await listProtections({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  return c.json((await paginateArray(c, input, all)).map(toProtectedBranch));
});

refRoutes.get(`${protectedBranches}/:name`, path(NamePath), async (c) => {
  const { id, name } = c.req.valid('param');
  return c.json(toProtectedBranch(await getProtection({ ctx: c.var.ctx, input: { project: id, name } })));
});

refRoutes.post(protectedBranches, path(ProjectPath), params(ProtectBranchInput), async (c) => {
  const row = await protectBranch({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: c.req.valid('query') } });
  return c.json(toProtectedBranch(row), 201);
});

refRoutes.delete(`${protectedBranches}/:name`, path(NamePath), async (c) => {
  const { id, name } = c.req.valid('param');
  await unprotectBranch({ ctx: c.var.ctx, input: { project: id, name, ifUnmodifiedSince: c.req.header('If-Unmodified-Since') } });
  return c.body(null, 204);
});

refRoutes.get(protectedTags, path(ProjectPath), params(ListProtectedTagsInput), async (c) => {
  const input = c.req.valid('query');
  const all = await listTagProtections({ ctx: c.var.ctx, input: { project: c.req.valid('param').id } });
  return c.json((await paginateArray(c, input, all)).map(toProtectedTag));
});

refRoutes.get(`${protectedTags}/:name`, path(NamePath), async (c) => {
  const { id, name } = c.req.valid('param');
  return c.json(toProtectedTag(await getTagProtection({ ctx: c.var.ctx, input: { project: id, name } })));
});

refRoutes.post(protectedTags, path(ProjectPath), params(ProtectTagInput), async (c) => {
  const row = await protectTag({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: c.req.valid('query') } });
  return c.json(toProtectedTag(row), 201);
});

refRoutes.delete(`${protectedTags}/:name`, path(NamePath), async (c) => {
  const { id, name } = c.req.valid('param');
  await unprotectTag({ ctx: c.var.ctx, input: { project: id, name, ifUnmodifiedSince: c.req.header('If-Unmodified-Since') } });
  return c.body(null, 204);
});
