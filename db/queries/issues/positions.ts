// Relative positions of issues (RelativePositioning), as moving an issue on a board reads and writes them.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { issues } from '../../schema/index.ts';

export async function issuePositions(db: Db, projectId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: issues.id, relativePosition: issues.relativePosition })
    .from(issues)
    .where(and(eq(issues.projectId, projectId), inArray(issues.id, [...ids])));
}

export async function maxRelativePosition(db: Db, projectId: number): Promise<number | null> {
  const [row] = await db
    .select({ max: sql<number | null>`MAX(${issues.relativePosition})` })
    .from(issues)
    .where(eq(issues.projectId, projectId));
  return row?.max == null ? null : Number(row.max);
}

export async function setRelativePosition(db: Db, issueId: number, position: number) {
  await db.update(issues).set({ relativePosition: position }).where(eq(issues.id, issueId));
}
