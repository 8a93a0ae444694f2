// The merge requests around one issue (GitLab 13.6 lib/api/issues.rb):
// - GET .../issues/:iid/related_merge_requests: Issues::ReferencedMergeRequestsService#referenced_merge_requests,
//   the MRs the issue's description names (`!iid`) and those whose title or description names the issue (GitLab
//   finds the latter through the cross-reference system notes an MR's mention leaves on the issue; they are derived
//   from the MR texts here, so nothing new is stored), as the actor may read them, by iid.
// - GET .../issues/:iid/closed_by: the MRs of the issue's project that close it (the merge_requests_closing_issues
//   cache the MR verbs keep, merge-requests/closing.ts), newest first.
// Gap: GitLab also finds related MRs through the issue's notes (cross-references); this reads the MR texts only.
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import { closingMergeRequestIds, findMergeRequestViewsByIds } from '../merge-requests/lookups.ts';
import * as q from '../../db/queries/issues.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { closingIssueRefs, type ClosingIssueRef } from '../merge-requests/closing-references.ts';
import { mergeRequestFacts } from '../merge-requests/service.ts';
import { findProject } from '../projects/service.ts';
import { findIssue, type IssueRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** How many candidate MRs a listing parses at most (their texts are read in one statement). */
const CANDIDATES = 1000;

const PATH = String.raw`[a-zA-Z0-9_.][a-zA-Z0-9_.\-]*`;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every issue reference in `text` (Issue.reference_pattern: `#1`, `project#1`, `group/project#1`; and links to an
 * issue of this instance), resolved as closing-references.ts resolves them: null for the text's own project.
 */
export function issueRefs(text: string, options: { baseUrl: string; projectPath: string }): ClosingIssueRef[] {
  const current = options.projectPath;
  const namespace = current.includes('/') ? current.slice(0, current.lastIndexOf('/')) : undefined;
  const resolve = (path: string | undefined): string | null => {
    if (path === undefined) return null;
    const full = !path.includes('/') && namespace !== undefined ? `${namespace}/${path}` : path;
    return full.toLowerCase() === current.toLowerCase() ? null : full;
  };
  const base = escapeRegExp(options.baseUrl.replace(/\/+$/, ''));
  const pattern = new RegExp(
    String.raw`${base}/(?<linked>(?:${PATH}/)+${PATH})(?:/-)?/issues/(?<linkedIid>\d+)\b|(?<![a-zA-Z0-9_.\-/])(?<project>(?:${PATH}/)*${PATH})?#(?<iid>\d+)\b`,
    'g',
  );
  const found: ClosingIssueRef[] = [];
  for (const m of text.matchAll(pattern)) {
    const g = m.groups!;
    if (g.linked !== undefined) found.push({ projectPath: resolve(g.linked), iid: Number(g.linkedIid) });
    else found.push({ projectPath: resolve(g.project), iid: Number(g.iid) });
  }
  return found;
}

/** Whether one of `refs` (read in a text of the project at `textProject`) is the issue. */
const namesIssue = (refs: readonly ClosingIssueRef[], textProject: string, issueProject: string, iid: number) =>
  refs.some((r) => r.iid === iid && (r.projectPath ?? textProject).toLowerCase() === issueProject.toLowerCase());

const textOf = (c: { title: string; description: string | null }) => `${c.title}\n${c.description ?? ''}`;

/** The MRs with their target projects as the actor sees them, those it may not read left out. */
async function readable(ctx: RequestContext, issueProject: ProjectView, views: readonly MergeRequestView[]) {
  const projects = new Map<number, ProjectView | null>([[issueProject.project.id, issueProject]]);
  for (const v of views) {
    const id = v.mr.targetProjectId;
    if (!projects.has(id)) projects.set(id, await findProject(ctx, { id }).catch(() => null));
  }
  return views.flatMap((view) => {
    const project = projects.get(view.mr.targetProjectId);
    return project && can(ctx.actor, 'merge_request:read', mergeRequestFacts(project, view)) ? [{ project, view }] : [];
  });
}

/** GET .../related_merge_requests: the MRs around the issue, by iid (sort_by_iid), each with its project. */
export async function relatedMergeRequests({ ctx, input }: Verb<IssueRef>) {
  const { project, view } = await findIssue(ctx, input);
  const issuePath = project.project.pathWithNamespace;
  const iid = view.issue.iid;
  const candidates = await q.mergeRequestsNamingIssueNumber(ctx.db, ctx.actor, iid, { limit: CANDIDATES });
  const naming = candidates.filter((c) =>
    namesIssue(issueRefs(textOf(c), { baseUrl: ctx.config.publicUrl, projectPath: c.projectPath }), c.projectPath, issuePath, iid),
  );
  // `!iid` in the issue's title or description: the project's own MRs.
  const named = [...textOf(view.issue).matchAll(/(?<![a-zA-Z0-9_.\-/!])!(\d+)\b/g)].map((m) => Number(m[1]));
  const ids = [...new Set([...naming.map((c) => c.id), ...(await q.mergeRequestIdsByIids(ctx.db, project.project.id, named))])];
  const found = await readable(ctx, project, await findMergeRequestViewsByIds(ctx.db, ctx.actor, ids));
  return found.sort((a, b) => a.view.mr.iid - b.view.mr.iid || a.view.mr.id - b.view.mr.id);
}

/**
 * GET .../closed_by: the project's MRs whose cached closing issues hold the issue (MergeRequestsClosingIssues, kept
 * by the MR verbs: merge-requests/closing.ts), as the actor may read them, newest first.
 */
export async function mergeRequestsClosingIssue({ ctx, input }: Verb<IssueRef>) {
  const { project, view } = await findIssue(ctx, input);
  const ids = await closingMergeRequestIds(ctx.db, view.issue.id, project.project.id);
  const found = await readable(ctx, project, await findMergeRequestViewsByIds(ctx.db, ctx.actor, ids));
  return found.sort((a, b) => b.view.mr.id - a.view.mr.id).map((f) => f.view);
}
