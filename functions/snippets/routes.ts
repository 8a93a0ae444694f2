// Personal snippets: GET /snippets, GET /snippets/public, GET/PUT/DELETE /snippets/:id, GET /snippets/:id/raw,
// GET /snippets/:id/files/:ref/:file_path/raw, POST /snippets. Project snippets: the same under
// /projects/:id/snippets (:snippet_id), without `public`.
import { Hono, type Context } from 'hono';
import { validator } from 'hono/validator';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { paramErrors } from '../lib/errors.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, pathId, readInput, schema, toValidationError, type Output, type Schema } from '../lib/validate.ts';
import {
  createParamErrors,
  CreatePersonalSnippetInput,
  CreateProjectSnippetInput,
  ListSnippetsInput,
  SnippetIdPath,
  toSnippet,
  UpdateSnippetInput,
  updateParamErrors,
} from './schemas.ts';
import { createSnippet } from './create.ts';
import * as snippets from './service.ts';
import type { SnippetOwner } from './service.ts';
import { updateSnippet } from './update.ts';

export const snippetRoutes = new Hono<AppEnv>();

/**
 * Validates the merged parameters with the field schema and the cross-parameter rules (given, mutually_exclusive,
 * exactly_one_of, allow_blank) together, so one 400 lists every Grape message, as Grape does.
 */
const snippetParams = <S extends z.ZodMiniType>(fields: Schema<S>, cross: (input: Record<string, unknown>) => string[]) =>
  validator('query', async (_value, c): Promise<z.output<S>> => {
    const input = await readInput(c);
    const result = await fields().safeParseAsync(input);
    const extra = cross(input);
    if (result.success && !extra.length) return result.data;
    const base = result.success ? null : toValidationError(result.error.issues);
    const grape = base?.problem.kind === 'params' ? base.problem.params : [];
    // Grape's parameter errors win over model errors (as in toValidationError).
    if (grape.length || extra.length) throw paramErrors([...grape, ...extra]);
    throw base!;
  });

const SnippetPath = schema(() => z.object({ id: pathId() }));
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const ProjectSnippetPath = schema(() => z.object({ id: projectRef(), ...SnippetIdPath() }));
const FilePath = () => ({ ref: z.string(), file_path: z.string() });
const SnippetFilePath = schema(() => z.object({ id: pathId(), ...FilePath() }));
const ProjectSnippetFilePath = schema(() => z.object({ id: projectRef(), ...SnippetIdPath(), ...FilePath() }));

/** The raw endpoints: text/plain, shown inline under the file's name (GitLab's send_git_blob). */
function raw(c: Context<AppEnv>, file: { path: string; content: string }) {
  const name = file.path.split('/').pop() ?? '';
  c.header('Content-Type', 'text/plain; charset=utf-8');
  c.header(
    'Content-Disposition',
    `inline; filename="${name.replace(/["\\]/g, '_').replace(/[^\x20-\x7e]/g, '?')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  );
  return c.body(file.content, 200);
}

// ---- Personal snippets ----

const personal: SnippetOwner = { kind: 'personal' };

snippetRoutes.get('/snippets', authenticated, params(ListSnippetsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = snippets.listPersonalSnippets({ ctx, input: { scope: 'mine' } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toSnippet(v, ctx.config)));
});

snippetRoutes.get('/snippets/public', authenticated, params(ListSnippetsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = snippets.listPersonalSnippets({ ctx, input: { scope: 'public' } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toSnippet(v, ctx.config)));
});

snippetRoutes.get('/snippets/:id', path(SnippetPath), async (c) => {
  const { ctx } = c.var;
  const view = await snippets.getSnippet({ ctx, input: { owner: personal, id: c.req.valid('param').id } });
  return c.json(toSnippet(view, ctx.config));
});

snippetRoutes.get('/snippets/:id/raw', path(SnippetPath), async (c) => {
  const file = await snippets.rawSnippet({ ctx: c.var.ctx, input: { owner: personal, id: c.req.valid('param').id } });
  return raw(c, file);
});

snippetRoutes.get('/snippets/:id/files/:ref/:file_path/raw', path(SnippetFilePath), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const file = await snippets.rawSnippet({ ctx: c.var.ctx, input: { owner: personal, id, path: file_path } });
  return raw(c, file);
});

snippetRoutes.post('/snippets', authenticated, snippetParams(CreatePersonalSnippetInput, createParamErrors), async (c) => {
  const { ctx } = c.var;
  const view = await createSnippet({ ctx, input: { owner: personal, params: c.req.valid('query') } });
  return c.json(toSnippet(view, ctx.config), 201);
});

snippetRoutes.put('/snippets/:id', authenticated, path(SnippetPath), snippetParams(UpdateSnippetInput, updateParamErrors), async (c) => {
  const { ctx } = c.var;
  const view = await updateSnippet({ ctx, input: { owner: personal, id: c.req.valid('param').id, params: c.req.valid('query') } });
  return c.json(toSnippet(view, ctx.config));
});

snippetRoutes.delete('/snippets/:id', authenticated, path(SnippetPath), async (c) => {
  await snippets.deleteSnippet({
    ctx: c.var.ctx,
    input: { owner: personal, id: c.req.valid('param').id, ifUnmodifiedSince: c.req.header('if-unmodified-since') },
  });
  return c.body(null, 204);
});

// ---- Project snippets ----

const base = '/projects/:id/snippets';
const ofProject = (ref: Output<typeof projectRef>): SnippetOwner => ({ kind: 'project', ref });

snippetRoutes.get(base, path(ProjectPath), params(ListSnippetsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await snippets.listProjectSnippets({ ctx, input: { ref: c.req.valid('param').id } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toSnippet(v, ctx.config)));
});

snippetRoutes.get(`${base}/:snippet_id`, path(ProjectSnippetPath), async (c) => {
  const { ctx } = c.var;
  const { id, snippet_id } = c.req.valid('param');
  const view = await snippets.getSnippet({ ctx, input: { owner: ofProject(id), id: snippet_id } });
  return c.json(toSnippet(view, ctx.config));
});

snippetRoutes.get(`${base}/:snippet_id/raw`, path(ProjectSnippetPath), async (c) => {
  const { id, snippet_id } = c.req.valid('param');
  const file = await snippets.rawSnippet({ ctx: c.var.ctx, input: { owner: ofProject(id), id: snippet_id } });
  return raw(c, file);
});

snippetRoutes.get(`${base}/:snippet_id/files/:ref/:file_path/raw`, path(ProjectSnippetFilePath), async (c) => {
  const { id, snippet_id, file_path } = c.req.valid('param');
  const file = await snippets.rawSnippet({ ctx: c.var.ctx, input: { owner: ofProject(id), id: snippet_id, path: file_path } });
  return raw(c, file);
});

snippetRoutes.post(base, authenticated, path(ProjectPath), snippetParams(CreateProjectSnippetInput, createParamErrors), async (c) => {
  const { ctx } = c.var;
  const view = await createSnippet({ ctx, input: { owner: ofProject(c.req.valid('param').id), params: c.req.valid('query') } });
  return c.json(toSnippet(view, ctx.config), 201);
});

snippetRoutes.put(`${base}/:snippet_id`, authenticated, path(ProjectSnippetPath), snippetParams(UpdateSnippetInput, updateParamErrors), async (c) => {
  const { ctx } = c.var;
  const { id, snippet_id } = c.req.valid('param');
  const view = await updateSnippet({ ctx, input: { owner: ofProject(id), id: snippet_id, params: c.req.valid('query') } });
  return c.json(toSnippet(view, ctx.config));
});

snippetRoutes.delete(`${base}/:snippet_id`, authenticated, path(ProjectSnippetPath), async (c) => {
  const { id, snippet_id } = c.req.valid('param');
  await snippets.deleteSnippet({ ctx: c.var.ctx, input: { owner: ofProject(id), id: snippet_id, ifUnmodifiedSince: c.req.header('if-unmodified-since') } });
  return c.body(null, 204);
});
