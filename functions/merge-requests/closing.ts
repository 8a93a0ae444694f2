// MergeRequest#closes_issues (GitLab 13.6): the issues an MR's title, description and commit messages name with the
// closing pattern (closing-references.ts), that the actor may read, each once, in the order named; only for an MR
// into the project's default branch. Merging closes them (merge.ts); GET .../closes_issues lists them; and the
// cache GitLab keeps of them (merge_requests_closing_issues: an issue's merge_requests_count and closed_by) is
// rewritten by the verbs that change what they are (create, edit, a new version).
import type { IssueView } from '../../db/queries/issues.ts';
import { issueViewByProjectRefQuery } from '../issues/lookups.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import { commitsBetween, findRepository } from '../repositories/lookups.ts';
import { issueFacts } from '../issues/service.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { closingIssueRefs } from './closing-references.ts';

/** What closes_issues reads of an MR: its texts, its branches and the SHAs of its latest version. */
export type ClosingSource = Pick<MergeRequestView['mr'], 'title' | 'description' | 'targetBranch' | 'targetProjectId'> & {
  version: { startCommitSha: string; headCommitSha: string } | null;
};

export const closingSourceOf = (v: MergeRequestView): ClosingSource => ({ ...v.mr, version: v.latestDiff });

export type ClosingIssue = { project: ProjectView; issue: IssueView };

/** The issues the MR closes as the actor may read them (none unless it targets the default branch). */
export async function closesIssues(ctx: RequestContext, project: ProjectView, mr: ClosingSource, defaultBranch?: string | null): Promise<ClosingIssue[]> {
  const branch = defaultBranch !== undefined ? defaultBranch : ((await findRepository(ctx.db, project.project.id))?.defaultBranch ?? null);
  if (branch !== mr.targetBranch) return [];
  const messages = mr.version
    ? (await commitsBetween(ctx.db, mr.targetProjectId, mr.version.startCommitSha, mr.version.headCommitSha)).commits.map((c) => c.message)
    : [];
  return closingIssuesIn(ctx, project, [mr.title, mr.description ?? '', ...messages].join('\n'));
}

/**
 * The issues `text` closes with the closing pattern (closing-references.ts), as the actor may read them, each once,
 * in the order named: an MR's texts, or a commit's message pushed to the default branch (issues/commit-closing.ts).
 */
export async function closingIssuesIn(ctx: RequestContext, project: ProjectView, text: string): Promise<ClosingIssue[]> {
  const refs = closingIssueRefs(text, { baseUrl: ctx.config.publicUrl, projectPath: project.project.pathWithNamespace });
  if (!refs.length) return [];
  const rows = await ctx.batch(
    (db) =>
      refs.flatMap((r) => {
        const ref = r.projectPath === null ? { id: project.project.id } : { path: r.projectPath };
        return [projectViewQuery(db, ctx.actor, ref), issueViewByProjectRefQuery(db, ctx.actor, ref, r.iid)] as const;
      }) as unknown as readonly [ReturnType<typeof projectViewQuery>],
  );
  const found: ClosingIssue[] = [];
  for (let i = 0; i < refs.length; i++) {
    const p = (rows[2 * i] as unknown as Parameters<typeof toProjectView>[0][])[0];
    const issue = (rows[2 * i + 1] as unknown as IssueView[])[0];
    if (!p || !issue || found.some((f) => f.issue.issue.id === issue.issue.id)) continue;
    const issueProject = toProjectView(p);
    if (can(ctx.actor, 'issue:read', issueFacts(issueProject, issue))) found.push({ project: issueProject, issue });
  }
  return found;
}
