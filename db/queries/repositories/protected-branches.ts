// Protected branches (GitLab's protected_branches with the role access levels folded in). Patterns use `*` as
// ProtectedRefMatcher does; in SQL a pattern becomes a LIKE pattern (`%`, `_` and `\` escaped, `*` as `%`).
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { protectedBranches, type ProtectedBranchRow } from '../../schema/index.ts';

/** Whether `branch` (a bound value) matches the stored pattern column, as ProtectedRefMatcher#matches? does. */
const matchesPattern = (branch: string): SQL =>
  sql`${branch} LIKE replace(replace(replace(replace(${protectedBranches.name}, '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%')`;

/** The project's protected branches in creation order (GitLab lists them by id). */
export async function listProtectedBranches(db: Db, projectId: number): Promise<ProtectedBranchRow[]> {
  return db.select().from(protectedBranches).where(eq(protectedBranches.projectId, projectId)).orderBy(asc(protectedBranches.id));
}

/** One by its exact name (pattern text), as `protected_branches.find_by(name:)`. */
export async function findProtectedBranch(db: Db, projectId: number, name: string): Promise<ProtectedBranchRow | undefined> {
  const [row] = await db
    .select()
    .from(protectedBranches)
    .where(and(eq(protectedBranches.projectId, projectId), eq(protectedBranches.name, name)));
  return row;
}

/** Inserts a protection; undefined when the name is already protected (the unique index decides, so races too). */
export async function insertProtectedBranch(
  db: Db,
  row: { projectId: number; name: string; pushAccessLevel: number; mergeAccessLevel: number },
): Promise<ProtectedBranchRow | undefined> {
  const [created] = await db.insert(protectedBranches).values(row).onConflictDoNothing().returning();
  return created;
}

/** Deletes a protection by exact name; whether one was there. */
export async function deleteProtectedBranch(db: Db, projectId: number, name: string): Promise<boolean> {
  const deleted = await db
    .delete(protectedBranches)
    .where(and(eq(protectedBranches.projectId, projectId), eq(protectedBranches.name, name)))
    .returning({ id: protectedBranches.id });
  return deleted.length > 0;
}

/**
 * Projects::ProtectDefaultBranchService under default_branch_protection 2 (full protection): when the default branch
 * comes into being (first push, a README commit, a fork), it is protected for maintainers' pushes and merges, unless
 * a rule already covers it. One statement, for the batch or transaction that creates the branch.
 */
export const protectDefaultBranchQuery = (db: Db, projectId: number, branch: string) =>
  db.execute(sql`INSERT INTO ${protectedBranches} (project_id, name, push_access_level, merge_access_level)
    SELECT ${projectId}, ${branch}, 40, 40
    WHERE NOT EXISTS (SELECT 1 FROM ${protectedBranches} WHERE ${protectedBranches.projectId} = ${projectId} AND ${matchesPattern(branch)})
    ON CONFLICT DO NOTHING`);

/** The rules the push check needs, as a correlated JSON array (so the repository read stays one statement). */
export const protectionRulesSql = (projectId: SQL | number): SQL =>
  sql`(SELECT coalesce(json_agg(json_build_object('name', pb.name, 'push', pb.push_access_level, 'merge', pb.merge_access_level) ORDER BY pb.id), '[]')
    FROM ${protectedBranches} pb WHERE pb.project_id = ${projectId})`;
