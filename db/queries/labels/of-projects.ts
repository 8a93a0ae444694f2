// Projects' own labels for several projects in one statement each (GraphQL's Project.labels pages and counts, labels
// by title): the batched reads functions/labels/reads.ts offers the loaders.
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { labels } from '../../schema/index.ts';
import type { LabelRow } from '../../schema/labels.ts';
import { byParent, rowNumber, singleParentLimit, keysetSql, type KeysetPage } from '../lib/window.ts';
import { labelSearch } from '../labels.ts';

/**
 * A keyset page of own labels (GraphQL's Project.labels, optionally fuzzy-searched by title/description) for each of
 * several projects, in one statement (one list per project, in order).
 */
export async function listProjectLabelsPages(db: Db, projectIds: readonly number[], search: string | undefined, keyset: KeysetPage): Promise<LabelRow[][]> {
  const page = keysetSql(labels.id, keyset);
  if (!projectIds.length) return [];
  const w = singleParentLimit(
    db
      .select({ wid: sql<number>`${labels.id}`.as('wid'), rn: rowNumber(labels.projectId, page.orderBy) })
      .from(labels)
      .where(and(inArray(labels.projectId, [...projectIds]), labelSearch(search), page.where))
      .$dynamic(),
    projectIds.length === 1,
    page,
  ).as('w');
  const found = await db
    .select(getTableColumns(labels))
    .from(labels)
    .innerJoin(w, eq(w.wid, labels.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(labels.projectId, w.rn);
  return byParent(projectIds, found, (l) => l.projectId!);
}

/** The number of own labels (matching `search`) of each project, in one grouped count. */
export async function countProjectLabelsOfProjects(db: Db, projectIds: readonly number[], search: string | undefined): Promise<number[]> {
  if (!projectIds.length) return [];
  const found = await db
    .select({ projectId: labels.projectId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(labels)
    .where(and(inArray(labels.projectId, [...projectIds]), labelSearch(search)))
    .groupBy(labels.projectId);
  const counts = new Map(found.map((r) => [r.projectId, r.n]));
  return projectIds.map((id) => counts.get(id) ?? 0);
}

/** Projects' own labels by exact title, for several (project, title) pairs in one statement (undefined: none). */
export async function findProjectLabelsByTitles(db: Db, pairs: ReadonlyArray<{ projectId: number; title: string }>): Promise<Array<LabelRow | undefined>> {
  if (!pairs.length) return [];
  const found = await db
    .select()
    .from(labels)
    .where(and(inArray(labels.projectId, [...new Set(pairs.map((p) => p.projectId))]), inArray(labels.title, [...new Set(pairs.map((p) => p.title))])))
    .orderBy(asc(labels.id));
  return pairs.map((p) => found.find((l) => l.projectId === p.projectId && l.title === p.title));
}
