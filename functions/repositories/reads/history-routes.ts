// Reads over a repository's history (GitLab 13.6): a file's blame (files.rb), the contributors (repositories.rb), the
// refs that contain a commit and a commit's signature (commits.rb). Names in the path arrive URL-encoded (`%2F` for
// a slash) and Hono decodes them; `files/:file_path/blame` has one segment more than routes.ts's `files/:file_path`,
// so neither route can take the other's requests.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../../lib/context.ts';
import { paramErrors } from '../../lib/errors.ts';
import { projectRef } from '../../lib/ids.ts';
import { paginateArray } from '../../lib/pagination.ts';
import { params, parseParams, path, schema } from '../../lib/validate.ts';
import { toBlameRange } from '../blame/entities.ts';
import { getBlame } from '../blame/read.ts';
import { commitRefs, CommitRefsInput, commitRefsProject, toBasicRef } from './commit-refs.ts';
import { ContributorsInput, contributorsProject, listContributors, toContributor } from './contributors.ts';
import { languagesJson, projectLanguages } from './languages.ts';
import { commitSignature } from './signature.ts';
import { toCommitSignature } from '../../gpg-keys/schemas.ts';
import { fileHeaders } from '../entities.ts';
import { GetFileInput } from '../schemas.ts';

export const repositoryHistoryRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const ShaPath = schema(() => z.object({ id: projectRef(), sha: z.string() }));
const FilePath = schema(() => z.object({ id: projectRef(), file_path: z.string() }));

const base = '/projects/:id/repository';

/** The `file_path: true` validator (Gitlab::Utils.check_path_traversal!), as routes.ts applies it. */
function filePath(raw: string): string {
  if (raw.split('/').includes('..')) throw paramErrors(['file_path should be a valid file path']);
  return raw;
}

// GET and HEAD (Hono answers HEAD with the GET route's headers): `ref` required; not paginated in 13.6.
repositoryHistoryRoutes.get(`${base}/files/:file_path/blame`, path(FilePath), params(GetFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const found = await getBlame({ ctx: c.var.ctx, input: { project: id, path: filePath(file_path), ref: c.req.valid('query').ref } });
  for (const [name, value] of Object.entries(fileHeaders(found.file))) c.header(name, value);
  return c.json(found.groups.map(toBlameRange));
});

// repositories.rb and commits.rb authorize download_code in a `before` block, which Grape runs ahead of parameter
// validation: the parameters are read after the project check (a stranger gets 404 whatever they send).
repositoryHistoryRoutes.get(`${base}/contributors`, path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  const found = await contributorsProject(ctx, c.req.valid('param').id);
  const input = await parseParams(c, ContributorsInput());
  const contributors = await listContributors({ ctx, input: { found, params: input } });
  return c.json((await paginateArray(c, input, contributors)).map(toContributor));
});

repositoryHistoryRoutes.get(`${base}/commits/:sha/refs`, path(ShaPath), async (c) => {
  const { ctx } = c.var;
  const { id, sha } = c.req.valid('param');
  const found = await commitRefsProject(ctx, id);
  const input = await parseParams(c, CommitRefsInput());
  const refs = await commitRefs({ ctx, input: { found, sha, type: input.type } });
  return c.json((await paginateArray(c, input, refs)).map(toBasicRef));
});

repositoryHistoryRoutes.get(`${base}/commits/:sha/signature`, path(ShaPath), async (c) => {
  const { id, sha } = c.req.valid('param');
  return c.json(toCommitSignature(await commitSignature({ ctx: c.var.ctx, input: { project: id, sha } })));
});

// GET /projects/:id/languages: an object, not a list (no pagination); its floats spelled as Ruby's JSON spells them.
repositoryHistoryRoutes.get('/projects/:id/languages', path(ProjectPath), async (c) => {
  const shares = await projectLanguages(c.var.ctx, c.req.valid('param').id);
  return c.body(languagesJson(shares), 200, { 'content-type': 'application/json' });
});
