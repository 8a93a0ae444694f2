// Issue verbs (GitLab's lib/api/issues.rb with Issues::{Create,Update,Close,Reopen}Service): policy first, one
// batch (create) or transaction (update: it locks the issue) per write, the event recorded in it (opened -> created,
// closed, reopened).

import * as q from '../../db/queries/issues.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import type { IssueRow, UserRow } from '../../db/schema/index.ts';

import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { listParent, type IssuableListSource } from '../issuables/list.ts';
import { pagedWithTotal } from '../lib/pagination.ts';
import { notFound } from '../lib/errors.ts';
import { usersWithProjectLevels, usersWithProjectLevelsByRefQuery } from '../issuables/lookups.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, type IssueFacts } from '../lib/policy.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { findProject, projectFacts, readableProject } from '../projects/service.ts';
import { issueFilter } from './filter.ts';
import { type ListIssuesParams } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };
export type IssueRef = { project: Ref | null; iid: number | null };

export const issueNotFound = () => notFound('Issue');

export const issueFacts = (project: ProjectView, v: q.IssueView): IssueFacts => ({
  kind: 'issue',
  project: projectFacts(project),
  authorId: v.issue.authorId,
  assigneeIds: v.assignees.map((a) => a.id),
  confidential: v.issue.confidential,
  discussionLocked: v.issue.discussionLocked === true,
});

/** The readable issue (404 `Issue Not Found` when missing or hidden), with its project. */
export async function findIssue(ctx: RequestContext, ref: IssueRef, options: { subscribed?: boolean; mentions?: readonly string[] } = {}) {
  const subscriberId = options.subscribed ? ctx.actor.user?.id : null;
  let project: ProjectView;
  let view: q.IssueView | undefined;
  /** The users named in `options.mentions`, with their levels on the project (usersWithProjectLevels). */
  let mentioned: Awaited<ReturnType<typeof usersWithProjectLevels>> = [];
  if (ref.project && ref.iid !== null) {
    // The project and the issue (and who a text about to be written mentions) in one round trip; the project's rule
    // (404/403) is still applied first.
    const projectRef = ref.project;
    const iid = ref.iid;
    const names = options.mentions ?? [];
    const [projectRows, issueRows, mentionRows] = await ctx.batch((db) => [
      projectViewQuery(db, ctx.actor, projectRef),
      q.issueViewByProjectRefQuery(db, ctx.actor, projectRef, iid, subscriberId),
      ...(names.length ? [usersWithProjectLevelsByRefQuery(db, projectRef, names)] : []),
    ]);
    project = readableProject(ctx, projectRows[0] ? toProjectView(projectRows[0]) : undefined);
    view = issueRows[0];
    mentioned = (mentionRows as typeof mentioned | undefined) ?? [];
  } else {
    project = await findProject(ctx, ref.project);
  }
  if (!view || !can(ctx.actor, 'issue:read', issueFacts(project, view))) throw issueNotFound();
  return { project, view, mentioned };
}

/** The readable issue by its database id (GraphQL's IssueID), with its project: 404 as findIssue. */
export async function findIssueById(ctx: RequestContext, id: number) {
  const view = await q.findIssueViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw issueNotFound();
  const project = await findProject(ctx, { id: view.issue.projectId });
  if (!can(ctx.actor, 'issue:read', issueFacts(project, view))) throw issueNotFound();
  return { project, view };
}

export async function getIssue({ ctx, input }: Verb<IssueRef>) {
  return (await findIssue(ctx, input, { subscribed: true })).view;
}

export async function reload(ctx: RequestContext, id: number) {
  const view = await q.findIssueViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw issueNotFound();
  return view;
}

/** The policy's read rule for the issue as another user at `accessLevel` on its project would meet it (to-dos, notifications). */
/** Who may give an issue its own creation time (GitLab: admins and project owners, set_issue_created_at). */
export const canSetCreatedAt = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:set_issue_created_at', projectFacts(project));

export const issueReader = (project: ProjectView, issue: IssueRow, assigneeIds: readonly number[]) => (user: UserRow, accessLevel: number) =>
  can(readerActor(user), 'issue:read', {
    kind: 'issue',
    project: { ...projectFacts(project), accessLevel },
    authorId: issue.authorId,
    assigneeIds,
    confidential: issue.confidential,
  });

export async function deleteIssue({ ctx, input }: Verb<IssueRef>) {
  requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  assertCan(ctx.actor, 'issue:delete', issueFacts(project, view));
  await ctx.transaction((tx) => q.deleteIssue(tx, view.issue.id));
}

// ---- Lists ----

export async function listIssues({ ctx, input }: Verb<{ source: IssuableListSource; params: ListIssuesParams }>) {
  const p = input.params;
  const parent = await listParent(ctx, input.source);
  const where = issueFilter(ctx, input.source.kind, p);
  if (!where) return { fetch: async () => [], count: async () => 0 };
  const filter: q.IssueListFilter = { ...where, ...parent };
  const order: q.IssueOrder = { by: p.order_by ?? 'created_at', sort: p.sort ?? 'desc' };
  // The page query carries the (capped) total, so paginate's count costs no second query unless the page is empty.
  return pagedWithTotal(
    async (limit, offset) => {
      const rows = await q.listIssueViews(ctx.db, ctx.actor, filter, order, limit, offset, COUNT_LIMIT + 1);
      return { rows, total: rows[0] ? Number(rows[0].total) : undefined };
    },
    (cap) => q.countIssues(ctx.db, ctx.actor, filter, cap),
  );
}
