// POST /ci/lint (GitLab 13.6 lib/api/lint.rb: open to anyone, always 200 with the status) and
// GET /projects/:id/ci/lint (the project's `.gitlab-ci.yml` at its default branch; GitLab added it in 13.8).
// The parser and the YAML library load with this route group, never at startup.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { params, path, schema } from '../lib/validate.ts';
import { lintContent, lintProjectConfig } from './lint.ts';
import { LintInput, ProjectLintInput, toLintResult, toLintStatus } from './schemas.ts';

export const ciLintRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));

ciLintRoutes.post('/ci/lint', params(LintInput), async (c) => {
  const input = c.req.valid('query');
  const result = await lintContent({ input: { content: input.content } });
  return c.json(toLintStatus(result, input.include_merged_yaml ?? false), 200);
});

ciLintRoutes.get('/projects/:id/ci/lint', path(ProjectPath), params(ProjectLintInput), async (c) => {
  const result = await lintProjectConfig({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, dryRun: c.req.valid('query').dry_run ?? false } });
  return c.json(toLintResult(result));
});
