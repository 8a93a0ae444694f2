// The write half of the repository REST API (GitLab 13.6: commits.rb, branches.rb, files.rb). Paths arrive
// URL-encoded (`%2F` in a branch or file path) and Hono decodes them.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../../lib/context.ts';
import { projectRef } from '../../lib/ids.ts';
import { params, path, schema } from '../../lib/validate.ts';
import { createBranch, deleteBranch, deleteMergedBranches } from './branches.ts';
import { changeCommit, type ChangeKind } from './commit-change.ts';
import { createCommit } from './create-commit.ts';
import { toBranch, toCommit, toCommitDetail, toFileCommit } from '../entities.ts';
import { writeFile } from './files.ts';
import { startHousekeeping } from '../housekeeping.ts';
import { commitStats } from '../reads/diffs.ts';
import { CommitChangeInput, CreateBranchInput, CreateCommitInput, CreateFileInput, DeleteFileInput, UpdateFileInput } from '../schemas.ts';

export const repositoryWriteRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const BranchPath = schema(() => z.object({ id: projectRef(), branch: z.string() }));
const ShaPath = schema(() => z.object({ id: projectRef(), sha: z.string() }));
const FilePath = schema(() => z.object({ id: projectRef(), file_path: z.string() }));

const base = '/projects/:id/repository';

// POST /projects/:id/housekeeping: 201 with the job's id as a JSON string (GitLab: Sidekiq's jid).
repositoryWriteRoutes.post('/projects/:id/housekeeping', path(ProjectPath), async (c) =>
  c.json(await startHousekeeping({ ctx: c.var.ctx, input: { project: c.req.valid('param').id } }), 201),
);

repositoryWriteRoutes.post(`${base}/commits`, path(ProjectPath), params(CreateCommitInput), async (c) => {
  const input = c.req.valid('query');
  const found = await createCommit({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  // `stats` (default true): the new commit against its first parent, one more statement (reads/diffs.ts).
  const [stats] = input.stats ? await commitStats(c.var.ctx.db, found.context.projectId, [found.commit]) : [null];
  return c.json(toCommitDetail(found.commit, found.context, stats ?? null), 201);
});

// cherry_pick and revert: 201 with Entities::Commit, or 200 `{"dry_run":"success"}` for a dry run.
for (const kind of ['cherry_pick', 'revert'] as const satisfies readonly ChangeKind[]) {
  repositoryWriteRoutes.post(`${base}/commits/:sha/${kind}`, path(ShaPath), params(CommitChangeInput), async (c) => {
    const { id, sha } = c.req.valid('param');
    const found = await changeCommit({ ctx: c.var.ctx, input: { project: id, sha, kind, params: c.req.valid('query') } });
    if (found.result.dryRun) return c.json({ dry_run: 'success' }, 200);
    return c.json(toCommit(found.result.commit, found.context), 201);
  });
}

repositoryWriteRoutes.post(`${base}/branches`, path(ProjectPath), params(CreateBranchInput), async (c) => {
  const { branch, ref } = c.req.valid('query');
  const found = await createBranch({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, branch, ref } });
  return c.json(toBranch(found.branch, found.context), 201);
});

repositoryWriteRoutes.delete(`${base}/branches/:branch`, path(BranchPath), async (c) => {
  const { id, branch } = c.req.valid('param');
  await deleteBranch({ ctx: c.var.ctx, input: { project: id, branch } });
  return c.body(null, 204);
});

repositoryWriteRoutes.delete(`${base}/merged_branches`, path(ProjectPath), async (c) => {
  await deleteMergedBranches({ ctx: c.var.ctx, input: { project: c.req.valid('param').id } });
  return c.json({ message: '202 Accepted' }, 202);
});

repositoryWriteRoutes.post(`${base}/files/:file_path`, path(FilePath), params(CreateFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const body = await writeFile({ ctx: c.var.ctx, input: { project: id, filePath: file_path, action: 'create', params: c.req.valid('query') } });
  return c.json(toFileCommit(body), 201);
});

repositoryWriteRoutes.put(`${base}/files/:file_path`, path(FilePath), params(UpdateFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const body = await writeFile({ ctx: c.var.ctx, input: { project: id, filePath: file_path, action: 'update', params: c.req.valid('query') } });
  return c.json(toFileCommit(body), 200);
});

repositoryWriteRoutes.delete(`${base}/files/:file_path`, path(FilePath), params(DeleteFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  await writeFile({ ctx: c.var.ctx, input: { project: id, filePath: file_path, action: 'delete', params: c.req.valid('query') } });
  return c.body(null, 204);
});
