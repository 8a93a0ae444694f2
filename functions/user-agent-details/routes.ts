// The admin-only user agent details of issues and snippets (GitLab 13.6 issues.rb, snippets.rb, project_snippets.rb).
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { UserAgentDetailRow } from '../../db/schema/index.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { path, pathId, schema } from '../lib/validate.ts';
import { IssuePath } from '../issues/schemas.ts';
import { SnippetIdPath } from '../snippets/schemas.ts';
import { issueUserAgentDetail, snippetUserAgentDetail } from './service.ts';

export const userAgentDetailRoutes = new Hono<AppEnv>();

/** Entities::UserAgentDetail. */
const toUserAgentDetail = (d: UserAgentDetailRow) => ({ user_agent: d.userAgent, ip_address: d.ipAddress, akismet_submitted: d.akismetSubmitted });

const IssueDetailPath = schema(() => z.object({ id: projectRef(), ...IssuePath() }));
const SnippetPath = schema(() => z.object({ id: pathId() }));
const ProjectSnippetPath = schema(() => z.object({ id: projectRef(), ...SnippetIdPath() }));

userAgentDetailRoutes.get('/projects/:id/issues/:issue_iid/user_agent_detail', path(IssueDetailPath), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  return c.json(toUserAgentDetail(await issueUserAgentDetail({ ctx: c.var.ctx, input: { project: id, iid: issue_iid } })));
});

userAgentDetailRoutes.get('/snippets/:id/user_agent_detail', path(SnippetPath), async (c) =>
  c.json(toUserAgentDetail(await snippetUserAgentDetail({ ctx: c.var.ctx, input: { owner: { kind: 'personal' }, id: c.req.valid('param').id } }))),
);

userAgentDetailRoutes.get('/projects/:id/snippets/:snippet_id/user_agent_detail', path(ProjectSnippetPath), async (c) => {
  const { id, snippet_id } = c.req.valid('param');
  return c.json(toUserAgentDetail(await snippetUserAgentDetail({ ctx: c.var.ctx, input: { owner: { kind: 'project', ref: id }, id: snippet_id } })));
});
