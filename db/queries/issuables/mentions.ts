// The users an issuable's text mentions, with their level on its project: what the policy needs to decide whether
// they may read it (mention to-dos, notifications).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { members, namespaces, projects, users } from '../../schema/index.ts';
import { liveProjectByRef, type ProjectLookup } from '../projects.ts';

/**
 * Active users with these (lower-cased) usernames, each with their effective membership level on the project
 * (direct or through its groups): what the policy needs to decide whether they may read an issue. Two statements.
 */
export async function usersWithProjectLevels(db: Db, project: { id: number; traversalIds: number[] }, usernames: readonly string[]) {
  if (!usernames.length) return [];
  return usersWithProjectLevelsQuery(db, project, usernames);
}

/**
 * usersWithProjectLevels for the live project named by `ref` (id or path), as a statement for the batch that reads
 * the project itself (no rows when there is no such project); usernames must not be empty.
 */
export function usersWithProjectLevelsByRefQuery(db: Db, ref: ProjectLookup, usernames: readonly string[]) {
  const level = sql<number>`COALESCE((SELECT max(m.access_level) FROM ${members} m WHERE m.user_id = ${users.id}
    AND ((m.source_type = 'Project' AND m.source_id = ${projects.id})
      OR (${namespaces.kind} = 'group' AND m.source_type = 'Namespace' AND m.source_id = ANY(${namespaces.traversalIds})))
    AND (m.expires_at IS NULL OR m.expires_at > current_date)), 0)`.mapWith(Number);
  return db
    .select({ user: users, accessLevel: level })
    .from(users)
    .innerJoin(projects, sql`true`)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(liveProjectByRef(ref), inArray(sql`lower(${users.username})`, [...usernames].slice(0, 100)), eq(users.state, 'active')));
}

/** usersWithProjectLevels as a statement for a batch (usernames must not be empty). */
export function usersWithProjectLevelsQuery(db: Db, project: { id: number; traversalIds: number[] }, usernames: readonly string[]) {
  const groupIds = project.traversalIds.map(Number);
  // One statement: each active user with the highest active membership level on the project or its groups (0: none).
  const level = sql<number>`COALESCE((SELECT max(m.access_level) FROM ${members} m WHERE m.user_id = "users"."id"
    AND ((m.source_type = 'Project' AND m.source_id = ${project.id})${
      groupIds.length
        ? sql` OR (m.source_type = 'Namespace' AND m.source_id IN (${sql.join(
            groupIds.map((id) => sql`${id}`),
            sql`, `,
          )}))`
        : sql``
    })
    AND (m.expires_at IS NULL OR m.expires_at > current_date)), 0)`.mapWith(Number);
  return db
    .select({ user: users, accessLevel: level })
    .from(users)
    .where(and(inArray(sql`lower(${users.username})`, [...usernames].slice(0, 100)), eq(users.state, 'active')));
}
