// Epic issues (epic_issues: one epic per issue): the links in GitLab's order, adding, moving and removing them, and
// which of the issues to link the actor may read.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { visibleIssuesFilter, visibleProjectsFilter, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { epicIssues, issues, namespaces, projects } from '../../schema/index.ts';

/** The epic's issue links in GitLab's order (relative_position, then id). */
export async function listEpicIssueLinks(db: Db, epicIds: readonly number[]) {
  if (!epicIds.length) return [];
  return db
    .select()
    .from(epicIssues)
    .where(inArray(epicIssues.epicId, [...epicIds]))
    .orderBy(sql`${epicIssues.relativePosition} ASC NULLS LAST`, asc(epicIssues.id));
}

export async function findEpicIssueLink(db: Db, epicId: number, id: number) {
  const [row] = await db
    .select()
    .from(epicIssues)
    .where(and(eq(epicIssues.epicId, epicId), eq(epicIssues.id, id)))
    .limit(1);
  return row;
}

export async function findEpicIssueLinkByIssue(db: Db, issueId: number) {
  const [row] = await db.select().from(epicIssues).where(eq(epicIssues.issueId, issueId)).limit(1);
  return row;
}

/**
 * Links the issue to the epic at the end of its list; an issue in another epic moves (one epic per issue: the
 * unique index on issue_id). Returns the link.
 */
export async function upsertEpicIssueLink(tx: Db, epicId: number, issueId: number) {
  const position = sql`(SELECT COALESCE(MAX(${epicIssues.relativePosition}), 0) + 1024 FROM ${epicIssues} WHERE ${epicIssues.epicId} = ${epicId})`;
  const [row] = await tx
    .insert(epicIssues)
    .values({ epicId, issueId, relativePosition: position })
    .onConflictDoUpdate({ target: epicIssues.issueId, set: { epicId, relativePosition: position } })
    .returning();
  return row!;
}

export async function deleteEpicIssueLink(tx: Db, id: number) {
  const [row] = await tx.delete(epicIssues).where(eq(epicIssues.id, id)).returning();
  return row;
}

export async function setEpicIssuePositions(tx: Db, positions: ReadonlyArray<{ id: number; relativePosition: number }>) {
  for (const p of positions) await tx.update(epicIssues).set({ relativePosition: p.relativePosition }).where(eq(epicIssues.id, p.id));
}

/** Of these issues, those the actor may read (the SQL twin of issue:read), in one statement. */
export async function readableIssueIds(db: Db, actor: Viewer, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: issues.id })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(inArray(issues.id, [...ids]), visibleIssuesFilter(actor) ?? visibleProjectsFilter(actor)));
  return new Set(rows.map((r) => r.id));
}
