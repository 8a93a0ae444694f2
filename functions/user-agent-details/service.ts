// GET .../issues/:issue_iid/user_agent_detail and .../snippets/:id/user_agent_detail (GitLab 13.6): administrators
// only (`authenticated_as_admin!` first: 403 for others, whatever the subject), then the subject as its own read
// rule finds it, then 404 `UserAgentDetail Not Found` when none was recorded.
import { findUserAgentDetail } from '../../db/queries/user-agent-details.ts';
import type { UserAgentDetailRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { findIssue } from '../issues/service.ts';
import { getSnippet, type SnippetOwner } from '../snippets/service.ts';
import { requireAdmin } from '../users/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

async function detailOf(ctx: RequestContext, subject: { issueId: number } | { snippetId: number }): Promise<UserAgentDetailRow> {
  const detail = await findUserAgentDetail(ctx.db, subject);
  if (!detail) throw notFound('UserAgentDetail');
  return detail;
}

export async function issueUserAgentDetail({ ctx, input }: Verb<{ project: Ref | null; iid: number | null }>) {
  requireAdmin(ctx);
  const { view } = await findIssue(ctx, { project: input.project, iid: input.iid });
  return detailOf(ctx, { issueId: view.issue.id });
}

export async function snippetUserAgentDetail({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null }>) {
  requireAdmin(ctx);
  const snippet = await getSnippet({ ctx, input });
  return detailOf(ctx, { snippetId: snippet.snippet.id });
}
