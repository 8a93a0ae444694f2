// What a board list may be made of (AvailableLabelsService, Boards::MilestonesFinder, Boards::UsersFinder): the
// labels and milestones of the board's parent and its groups, the members of its hierarchy; milestones by id with
// their owner's path (what a milestone list or a scoped board shows).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { labels, members, milestones, namespaces, projects, users } from '../../schema/index.ts';
import type { BoardParent } from '../boards.ts';

/** Own labels of the parent and those of its groups (a project's groups; a group's ancestors and itself). */
const ownedBy = (t: typeof labels | typeof milestones, parent: BoardParent): SQL =>
  sql`(${parent.kind === 'project' ? sql`${t.projectId} = ${parent.id} OR ` : sql``}${parent.groupIds.length ? inArray(t.groupId, [...parent.groupIds]) : sql`false`})`;

export async function findAvailableLabel(db: Db, parent: BoardParent, id: number) {
  const [row] = await db
    .select()
    .from(labels)
    .where(and(eq(labels.id, id), ownedBy(labels, parent)));
  return row;
}

/** Milestones by id with their owner's path (a scoped board's milestone). */
export async function milestonesByIds(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .select({
      milestone: milestones,
      path: sql<string>`COALESCE((SELECT p.path_with_namespace FROM ${projects} p WHERE p.id = ${milestones.projectId}), (SELECT n.full_path FROM ${namespaces} n WHERE n.id = ${milestones.groupId}))`,
    })
    .from(milestones)
    .where(inArray(milestones.id, [...ids]));
}

export async function findAvailableMilestone(db: Db, parent: BoardParent, id: number) {
  const [row] = await db
    .select()
    .from(milestones)
    .where(and(eq(milestones.id, id), ownedBy(milestones, parent)));
  return row;
}

/** A member of the board's project or group hierarchy. */
export async function findBoardUser(db: Db, parent: BoardParent, id: number) {
  const sources = [
    parent.kind === 'project' ? and(eq(members.sourceType, 'Project'), eq(members.sourceId, parent.id)) : undefined,
    parent.groupIds.length ? and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, [...parent.groupIds])) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), sql`EXISTS (SELECT 1 FROM ${members} WHERE ${members.userId} = ${users.id} AND (${sql.join(sources, sql` OR `)}))`));
  return row;
}
