// Commit comments (GitLab 13.6 lib/api/commits.rb): GET and POST /projects/:id/repository/commits/:sha/comments.
// Parameters are read after the project check (parseParams, not a validator middleware): commits.rb authorizes
// download_code in a `before` block, which Grape runs ahead of parameter validation, so a stranger gets 404 and a
// guest of a private project 403 whatever they send.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../../lib/context.ts';
import { projectRef } from '../../lib/ids.ts';
import { pageRequest, paginate } from '../../lib/pagination.ts';
import { parseParams, path, schema } from '../../lib/validate.ts';
import { commitCommentsProject, createCommitComment, listCommitComments } from './comments.ts';
import { CreateCommitCommentInput, ListCommitCommentsInput, toCommitNote } from './schemas.ts';

export const commitCommentRoutes = new Hono<AppEnv>();

const ShaPath = schema(() => z.object({ id: projectRef(), sha: z.string() }));
const COMMENTS = '/projects/:id/repository/commits/:sha/comments';

commitCommentRoutes.get(COMMENTS, path(ShaPath), async (c) => {
  const { ctx } = c.var;
  const { id, sha } = c.req.valid('param');
  const found = await commitCommentsProject(ctx, id);
  const input = await parseParams(c, ListCommitCommentsInput());
  const list = await listCommitComments({ ctx, input: { found, sha } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  const positions = await list.positions(rows);
  return c.json(rows.map((r, i) => toCommitNote(r, positions[i]!, ctx.config)));
});

commitCommentRoutes.post(COMMENTS, path(ShaPath), async (c) => {
  const { ctx } = c.var;
  const { id, sha } = c.req.valid('param');
  const found = await commitCommentsProject(ctx, id);
  const params = await parseParams(c, CreateCommitCommentInput());
  const { view, position } = await createCommitComment({ ctx, input: { found, sha, params } });
  return c.json(toCommitNote(view, position, ctx.config), 201);
});
