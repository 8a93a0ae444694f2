// Epic issues (GitLab 13.6 ee/lib/api/epic_issues.rb, EpicIssues::{Create,Update,Destroy}Service): every endpoint
// wants a signed-in user and the epics license; reads need read_epic, changes admin_epic. An issue is in at most one
// epic: adding it to another epic moves it.
import * as q from '../../db/queries/epics/epic-issues.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import { findIssueViewsByIds } from '../issues/lookups.ts';
import type { EpicIssueRow } from '../../db/schema/index.ts';
import { findIssueById } from '../issues/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isDomainError, recordNotFound, serviceFailed, unprocessable } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { epicFacts, epicGroup, readEpic } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type EpicRef = { ref: Ref | null; iid: number | null };

export interface EpicIssueEntry {
  link: EpicIssueRow;
  issue: IssueView;
}

async function epicFor(ctx: RequestContext, input: EpicRef, action: 'group:read_epic' | 'group:admin_epic') {
  requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  const epic = await readEpic(ctx, group, input.iid);
  assertCan(ctx.actor, action, epicFacts(ctx, group, epic.epic.confidential));
  return { group, epic };
}

/** The epics' issues the actor may read, in each epic's order (relative_position, id): a constant number of statements. */
export async function issuesOfEpics(ctx: RequestContext, epicIds: readonly number[]): Promise<EpicIssueEntry[][]> {
  const links = await q.listEpicIssueLinks(ctx.db, epicIds);
  const ids = links.map((l) => l.issueId);
  const [readable, views] = await Promise.all([q.readableIssueIds(ctx.db, ctx.actor, ids), findIssueViewsByIds(ctx.db, ctx.actor, ids)]);
  const byId = new Map(views.map((v) => [v.issue.id, v]));
  return epicIds.map((epicId) =>
    links.filter((l) => l.epicId === epicId && readable.has(l.issueId) && byId.has(l.issueId)).map((link) => ({ link, issue: byId.get(link.issueId)! })),
  );
}

/** GET /groups/:id/epics/:epic_iid/issues (not paginated in 13.6). */
export async function listEpicIssues({ ctx, input }: Verb<EpicRef>) {
  const { epic } = await epicFor(ctx, input, 'group:read_epic');
  return (await issuesOfEpics(ctx, [epic.epic.id]))[0]!;
}

/** POST /groups/:id/epics/:epic_iid/issues/:issue_id (the issue's global id). */
export async function addEpicIssue({ ctx, input }: Verb<EpicRef & { issueId: number | null }>) {
  const { group, epic } = await epicFor(ctx, input, 'group:admin_epic');
  if (input.issueId === null) throw recordNotFound();
  let found;
  try {
    found = await findIssueById(ctx, input.issueId);
  } catch (error) {
    // `Issue.find(params[:issue_id])`: ActiveRecord's 404.
    if (isDomainError(error, 'not_found')) throw recordNotFound();
    throw error;
  }
  const { project, view } = found;
  // The issue must belong to a project of the epic's group or a subgroup of it.
  if (project.namespace.kind !== 'group' || !project.namespace.traversalIds.includes(group.namespace.id)) throw recordNotFound();
  const existing = await q.findEpicIssueLinkByIssue(ctx.db, view.issue.id);
  if (existing?.epicId === epic.epic.id) throw conflict('Issue(s) already assigned');
  if (epic.epic.confidential && !view.issue.confidential)
    throw unprocessable([`#${view.issue.iid} cannot be added: Cannot set confidential epic for a non-confidential issue`]);
  const link = await ctx.transaction((tx) => q.upsertEpicIssueLink(tx, epic.epic.id, view.issue.id));
  return { link, epic, issue: view };
}

/** DELETE /groups/:id/epics/:epic_iid/issues/:epic_issue_id: the removed association. */
export async function removeEpicIssue({ ctx, input }: Verb<EpicRef & { linkId: number | null }>) {
  const { epic } = await epicFor(ctx, input, 'group:admin_epic');
  const link = input.linkId === null ? undefined : await q.findEpicIssueLink(ctx.db, epic.epic.id, input.linkId);
  if (!link) throw recordNotFound();
  const [issue] = await findIssueViewsByIds(ctx.db, ctx.actor, [link.issueId]);
  await ctx.transaction((tx) => q.deleteEpicIssueLink(tx, link.id));
  return { link, epic, issue: issue! };
}

/**
 * PUT /groups/:id/epics/:epic_iid/issues/:epic_issue_id with move_before_id/move_after_id (association ids): the
 * link goes between them; the answer is the epic's whole list in its new order.
 */
export async function moveEpicIssue({ ctx, input }: Verb<EpicRef & { linkId: number | null; before?: number | undefined; after?: number | undefined }>) {
  const { epic } = await epicFor(ctx, input, 'group:admin_epic');
  const link = input.linkId === null ? undefined : await q.findEpicIssueLink(ctx.db, epic.epic.id, input.linkId);
  if (!link) throw recordNotFound();
  const links = await q.listEpicIssueLinks(ctx.db, [epic.epic.id]);
  const neighbours = [input.before, input.after].filter((id): id is number => id !== undefined);
  // EpicIssues::UpdateService: neighbours that are not links of this epic (or no neighbour at all) cannot place it.
  if (!neighbours.length || neighbours.some((id) => id === link.id || !links.some((l) => l.id === id))) throw serviceFailed(['Issue could not be moved!']);
  const rest = links.filter((l) => l.id !== link.id);
  // move_before_id: the link that ends up before the moved one; move_after_id: the one after it.
  const at = input.before !== undefined ? rest.findIndex((l) => l.id === input.before) + 1 : rest.findIndex((l) => l.id === input.after);
  rest.splice(at, 0, link);
  await ctx.transaction((tx) =>
    q.setEpicIssuePositions(
      tx,
      rest.map((l, i) => ({ id: l.id, relativePosition: (i + 1) * 1024 })),
    ),
  );
  return (await issuesOfEpics(ctx, [epic.epic.id]))[0]!;
}
