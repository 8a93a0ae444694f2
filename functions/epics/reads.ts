// Batched epic reads for GraphQL (loaders.ts wraps these): Group.epics, Epic.children, Epic.issues,
// Epic.parent, hasChildren/hasIssues, subscribed. Each answers many parents in a constant number of statements and
// applies the same filters and policy as the REST listing.
import * as q from '../../db/queries/epics.ts';
import * as qBatched from '../../db/queries/epics/batched-reads.ts';
import * as qLabels from '../../db/queries/epics/labels.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import { readableGroupsByIds } from '../groups/reads.ts';
import type { RequestContext } from '../lib/context.ts';
import { can, epicsAvailable } from '../lib/policy.ts';
import { readableProjectsByIds } from '../projects/reads.ts';
import type { EpicIssueModel, EpicModel } from './models.ts';
import { epicFacts, subscribedToEpics } from './service.ts';
import { issuesOfEpics } from './epic-issues.ts';
import { epicWebPath } from './schemas.ts';
import { visibleParticipants } from '../issuables/participants.ts';
import type { UserRow } from '../../db/schema/index.ts';

/** GraphQL's cap on an epic list read at once (connections page it in memory). */
const MAX_EPICS = 1000;

/** Epic views with their groups; those the actor may not read are dropped (GitLab's authorized epics). */
async function withGroups(ctx: RequestContext, views: readonly q.EpicView[]): Promise<EpicModel[]> {
  const groups = await readableGroupsByIds(ctx, [...new Set(views.map((v) => v.epic.groupId))]);
  const byId = new Map(groups.filter((g) => g !== null).map((g) => [g!.namespace.id, g!]));
  return views.flatMap((view) => {
    const group = byId.get(view.epic.groupId);
    return group && can(ctx.actor, 'group:read_epic', epicFacts(ctx, group, view.epic.confidential)) ? [{ view, group }] : [];
  });
}

/** The epics of a group matching `filter` (EpicsFinder), or none when epics are not licensed (EpicsResolver). */
export async function groupEpics(ctx: RequestContext, filter: q.EpicFilter, order: q.EpicOrder): Promise<EpicModel[]> {
  if (!epicsAvailable(ctx.config.instanceTier)) return [];
  return withGroups(ctx, await q.listEpicViews(ctx.db, ctx.actor, filter, order, MAX_EPICS, 0));
}

/** Children of each epic matching the filter: one statement for all of them. */
export async function childrenOfEpics(
  ctx: RequestContext,
  parentIds: readonly number[],
  filter: Omit<q.EpicFilter, 'parentIds'>,
  order: q.EpicOrder,
): Promise<EpicModel[][]> {
  const found = await withGroups(ctx, await q.listEpicViews(ctx.db, ctx.actor, { ...filter, parentIds }, order, MAX_EPICS, 0));
  return byParent(parentIds, found, (m) => m.view.epic.parentId!);
}

/** Epics by id (parents), null when missing or not readable. */
export async function epicsByIds(ctx: RequestContext, ids: readonly number[]): Promise<Array<EpicModel | null>> {
  const found = new Map((await withGroups(ctx, await q.findEpicViewsByIds(ctx.db, ids))).map((m) => [m.view.epic.id, m]));
  return ids.map((id) => found.get(id) ?? null);
}

/** The readable issues of each epic, in order, with their projects. */
export async function issueModelsOfEpics(ctx: RequestContext, epics: readonly EpicModel[]): Promise<EpicIssueModel[][]> {
  const entries = await issuesOfEpics(
    ctx,
    epics.map((e) => e.view.epic.id),
  );
  const projectIds = [...new Set(entries.flat().map((e) => e.issue.issue.projectId))];
  const projects = new Map((await readableProjectsByIds(ctx, projectIds)).filter((p) => p !== null).map((p) => [p!.project.id, p!]));
  return entries.map((list, i) =>
    list.flatMap((e) => {
      const project = projects.get(e.issue.issue.projectId);
      return project ? [{ project, view: e.issue, link: e.link, epicPath: epicWebPath(epics[i]!.view) }] : [];
    }),
  );
}

/** hasChildren / hasIssues counts by epic id. */
export async function relationCounts(ctx: RequestContext, epicIds: readonly number[]) {
  const rows = new Map((await qBatched.epicRelationCounts(ctx.db, epicIds)).map((r) => [r.id, r]));
  return epicIds.map((id) => rows.get(id) ?? { id, children: 0, issues: 0 });
}

/** Epic.subscribed for the actor, by epic id. */
export async function subscribedOf(ctx: RequestContext, epicIds: readonly number[]): Promise<boolean[]> {
  const found = await subscribedToEpics(ctx, epicIds);
  return epicIds.map((id) => found.get(id) ?? false);
}

/** Group labels by id among the given groups (ids naming anything else are ignored, as GitLab's label finder does). */
export const findGroupLabelsByIds = (ctx: RequestContext, groupIds: readonly number[], ids: readonly number[]) =>
  qLabels.findGroupLabelsByIds(ctx.db, groupIds, ids);

/**
 * The group's own epic by iid (`user_group.epics.find_by(iid:)`, as the award emoji API finds it), null when there is
 * none; not checked against the policy: the caller applies the epic rule and answers in its own words.
 */
export async function groupEpicByIid(ctx: RequestContext, group: GroupView, iid: number | null): Promise<EpicModel | null> {
  const view = iid === null ? undefined : await q.findEpicView(ctx.db, group.namespace.id, iid);
  return view ? { view, group } : null;
}

/** Epic.participants of each epic: its author and the authors of the notes the actor may read, each once, as the actor may see them. */
export async function participantsOfEpics(ctx: RequestContext, found: readonly EpicModel[]): Promise<UserRow[][]> {
  const ids = found.map((e) => e.view.epic.id);
  const byEpic = byParent(ids, await qBatched.findParticipantsOfEpics(ctx.db, ids), (r) => r.epicId);
  // The epic as a noteable (notes/noteables.ts's epicNoteable, whose module reads epics: built here, not imported).
  return found.map((model, i) =>
    visibleParticipants(ctx, byEpic[i]!, {
      kind: 'epic',
      group: epicFacts(ctx, model.group, model.view.epic.confidential),
      authorId: model.view.epic.authorId,
    }),
  );
}
