// What issues and merge requests take alike from a create or update (GitLab's Issuable: assignees, milestone): the
// parameters' meaning and the rows they may name, resolved against the issuable's project.
import type { Db } from '../../db/client.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { assignableUserIds, assignableUsersQuery, findIssuableMilestone, issuableMilestoneIdSql } from './lookups.ts';

/** The project's ancestor groups (a personal project has none): where its milestones and labels may also come from. */
export const groupIdsOf = (project: ProjectView) => (project.namespace.kind === 'group' ? project.namespace.traversalIds : []);

/** What decides who may be assigned: the project and its visibility (assignableUsersQuery). */
export const assignableScope = (project: ProjectView) => ({
  id: project.project.id,
  visibilityLevel: project.project.visibilityLevel,
  traversalIds: groupIdsOf(project),
});

export type AssigneeInput = { assignee_ids?: number[] | undefined; assignee_id?: number | undefined };

/** The assignees asked for: `assignee_ids` wins; `assignee_id` 0 unassigns; undefined when neither was sent. */
export const wantedAssignees = (input: AssigneeInput) =>
  input.assignee_ids ?? (input.assignee_id !== undefined ? (input.assignee_id ? [input.assignee_id] : []) : undefined);

/** Of the assignees asked for, those who may be assigned (unknown ids dropped, as GitLab); undefined: not asked. */
export async function resolveAssignees(tx: Db, project: ProjectView, input: AssigneeInput) {
  const wanted = wantedAssignees(input);
  if (wanted === undefined) return undefined;
  return assignableUserIds(tx, assignableScope(project), wanted);
}

/** assignable users of `userIds` as SQL, for the batch that creates the issuable. */
export const assignableUsersSql = (db: Db, project: ProjectView, userIds: readonly number[]) => assignableUsersQuery(db, assignableScope(project), userIds);

/** `milestone_id` of an update: undefined (not sent), null (0, or not a milestone of the project or its groups), the id. */
export async function resolveMilestone(tx: Db, project: ProjectView, milestoneId: number | undefined) {
  if (milestoneId === undefined) return undefined;
  if (milestoneId === 0) return null;
  return (await findIssuableMilestone(tx, milestoneId, project.project.id, groupIdsOf(project)))?.id ?? null;
}

/** `milestone_id` of a create, as SQL for its batch (NULL when it is not a milestone of the project or its groups). */
export const milestoneIdSql = (project: ProjectView, milestoneId: number | undefined) =>
  milestoneId ? issuableMilestoneIdSql(milestoneId, project.project.id, groupIdsOf(project)) : null;
