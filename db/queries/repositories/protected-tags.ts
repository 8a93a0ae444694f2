// Protected tags (GitLab's protected_tags with the role create access level folded in). Patterns use `*` as
// ProtectedRefMatcher does; the matching itself is push-access.ts's, over the rules read with the repository row.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { protectedTags, type ProtectedTagRow } from '../../schema/index.ts';

/** The project's protected tags in creation order (GitLab lists them by id). */
export async function listProtectedTags(db: Db, projectId: number): Promise<ProtectedTagRow[]> {
  return db.select().from(protectedTags).where(eq(protectedTags.projectId, projectId)).orderBy(asc(protectedTags.id));
}

/** One by its exact name (pattern text), as `protected_tags.find_by(name:)`. */
export async function findProtectedTag(db: Db, projectId: number, name: string): Promise<ProtectedTagRow | undefined> {
  const [row] = await db
    .select()
    .from(protectedTags)
    .where(and(eq(protectedTags.projectId, projectId), eq(protectedTags.name, name)));
  return row;
}

/** Inserts a protection; undefined when the name is already protected (the unique index decides, so races too). */
export async function insertProtectedTag(db: Db, row: { projectId: number; name: string; createAccessLevel: number }): Promise<ProtectedTagRow | undefined> {
  const [created] = await db.insert(protectedTags).values(row).onConflictDoNothing().returning();
  return created;
}

/** Deletes a protection by exact name; whether one was there. */
export async function deleteProtectedTag(db: Db, projectId: number, name: string): Promise<boolean> {
  const deleted = await db
    .delete(protectedTags)
    .where(and(eq(protectedTags.projectId, projectId), eq(protectedTags.name, name)))
    .returning({ id: protectedTags.id });
  return deleted.length > 0;
}

/** The rules the tag checks need, as a correlated JSON array (so the repository read stays one statement). */
export const tagProtectionRulesSql = (projectId: SQL | number): SQL =>
  sql`(SELECT coalesce(json_agg(json_build_object('name', pt.name, 'create', pt.create_access_level) ORDER BY pt.id), '[]')
    FROM ${protectedTags} pt WHERE pt.project_id = ${projectId})`;
