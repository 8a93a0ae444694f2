// The epic tree (epics.parent_id, epics.relative_position): the facts a link is validated against, read under a
// lock, and the writes. Every change to the tree of one top-level group takes the same transaction-level advisory
// lock first, so two links that together would close a cycle (or exceed the depth) are decided one after the other,
// each seeing the other's result (row locks on the two epics alone would not do: a cycle can close through rows
// neither transaction touches).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { epicIssues, epics, issues } from '../../schema/index.ts';
import { intArray, rows } from '../lib/raw.ts';

/** The advisory lock class of epic trees (the second key is the top-level group's id). */
const EPIC_TREE_LOCK = 13_606;

/** Serializes tree changes under one top-level group until the transaction ends. */
export async function lockEpicTree(tx: Db, rootGroupId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${EPIC_TREE_LOCK}::int, ${rootGroupId}::int)`);
}

export interface TreeFacts {
  id: number;
  groupId: number;
  parentId: number | null;
  confidential: boolean;
  /** The epic and its ancestors (Epic#base_and_ancestors), nearest first; empty when the epic has no parent (GitLab counts none then). */
  baseAndAncestors: number[];
  /** Levels of the epic's subtree, itself included (ObjectHierarchy#max_descendants_depth). */
  maxDescendantsDepth: number;
}

/** Tree facts of the epics, read fresh (inside the locked transaction). */
export async function treeFacts(db: Db, ids: readonly number[]): Promise<Map<number, TreeFacts>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: number; group_id: number; parent_id: number | null; confidential: boolean; chain: number[] | string; depth: number }>(
    db,
    sql`SELECT e.id, e.group_id, e.parent_id, e.confidential,
        (WITH RECURSIVE up(id, parent_id, n) AS (
           SELECT x.id, x.parent_id, 1 FROM ${epics} x WHERE x.id = e.id
           UNION ALL SELECT p.id, p.parent_id, up.n + 1 FROM ${epics} p JOIN up ON p.id = up.parent_id WHERE up.n < 100)
         SELECT COALESCE(array_agg(up.id ORDER BY up.n), '{}') FROM up) AS chain,
        (WITH RECURSIVE down(id, n) AS (
           SELECT e.id, 1
           UNION ALL SELECT c.id, down.n + 1 FROM ${epics} c JOIN down ON c.parent_id = down.id WHERE down.n < 100)
         SELECT max(down.n) FROM down) AS depth
      FROM ${epics} e WHERE e.id IN ${[...ids]}`,
  );
  const toInts = (v: number[] | string) =>
    Array.isArray(v)
      ? v.map(Number)
      : String(v)
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
          .map(Number);
  return new Map(
    found.map((r) => {
      const chain = toInts(r.chain);
      const parentId = r.parent_id == null ? null : Number(r.parent_id);
      return [
        Number(r.id),
        {
          id: Number(r.id),
          groupId: Number(r.group_id),
          parentId,
          confidential: r.confidential === true || (r.confidential as unknown) === 't',
          baseAndAncestors: parentId === null ? [] : chain,
          maxDescendantsDepth: Number(r.depth),
        },
      ];
    }),
  );
}

/** Sets the child's parent, placed first among its new siblings (GitLab's move_to_start). */
export async function setParent(tx: Db, childId: number, parentId: number): Promise<void> {
  const start = sql`(SELECT COALESCE(MIN(s.relative_position), 1024 * 512) - 1024 FROM ${epics} s WHERE s.parent_id = ${parentId} AND s.id <> ${childId})`;
  await tx
    .update(epics)
    .set({ parentId, relativePosition: start, updatedAt: sql`now()` })
    .where(eq(epics.id, childId));
}

/** Removes the child from its parent (only if `parentId` is still its parent); whether it did. */
export async function clearParent(tx: Db, childId: number, parentId: number): Promise<boolean> {
  const done = await tx
    .update(epics)
    .set({ parentId: null, updatedAt: sql`now()` })
    .where(and(eq(epics.id, childId), eq(epics.parentId, parentId)))
    .returning({ id: epics.id });
  return done.length > 0;
}

/** The children of an epic in tree order (relative_position, then id descending: Epic.order_relative_position). */
export async function childIds(db: Db, parentId: number): Promise<number[]> {
  const found = await db
    .select({ id: epics.id })
    .from(epics)
    .where(eq(epics.parentId, parentId))
    .orderBy(sql`${epics.relativePosition} ASC NULLS LAST`, sql`${epics.id} DESC`);
  return found.map((r) => r.id);
}

/** Rewrites the positions of siblings in the given order. */
export async function setPositions(tx: Db, orderedIds: readonly number[]): Promise<void> {
  for (const [i, id] of orderedIds.entries())
    await tx
      .update(epics)
      .set({ relativePosition: (i + 1) * 1024 })
      .where(eq(epics.id, id));
}

export interface DescendantAggregate {
  id: number;
  openedEpics: number;
  closedEpics: number;
  openedIssues: number;
  closedIssues: number;
  openedWeight: number;
  closedWeight: number;
}

/**
 * Epic.descendantCounts / descendantWeightSum for many epics in one statement (GitLab 13.6's LazyEpicAggregate over
 * BulkEpicAggregateLoader): the epics below each one (not itself) by state, and the issues of it and every epic
 * below by state with their weights summed. Like GitLab's aggregate, nothing is filtered by the reader.
 */
export async function descendantAggregates(db: Db, ids: readonly number[]): Promise<DescendantAggregate[]> {
  if (!ids.length) return [];
  const found = await rows<Record<string, unknown>>(
    db,
    sql`WITH RECURSIVE tree(root, id, depth) AS (
          SELECT r, r, 0 FROM unnest(${intArray(ids)}) AS r
          UNION ALL SELECT tree.root, e.id, tree.depth + 1 FROM ${epics} e JOIN tree ON e.parent_id = tree.id WHERE tree.depth < 100
        )
        SELECT tree.root AS id,
          count(*) FILTER (WHERE tree.depth > 0 AND e.state = 'opened') AS opened_epics,
          count(*) FILTER (WHERE tree.depth > 0 AND e.state = 'closed') AS closed_epics,
          COALESCE(sum(iss.opened), 0) AS opened_issues, COALESCE(sum(iss.closed), 0) AS closed_issues,
          COALESCE(sum(iss.opened_weight), 0) AS opened_weight, COALESCE(sum(iss.closed_weight), 0) AS closed_weight
        FROM tree JOIN ${epics} e ON e.id = tree.id
        LEFT JOIN LATERAL (
          SELECT count(*) FILTER (WHERE i.state = 'opened') AS opened, count(*) FILTER (WHERE i.state = 'closed') AS closed,
            COALESCE(sum(i.weight) FILTER (WHERE i.state = 'opened'), 0) AS opened_weight,
            COALESCE(sum(i.weight) FILTER (WHERE i.state = 'closed'), 0) AS closed_weight
          FROM ${epicIssues} ei JOIN ${issues} i ON i.id = ei.issue_id WHERE ei.epic_id = e.id
        ) iss ON true
        GROUP BY tree.root`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    openedEpics: Number(r.opened_epics),
    closedEpics: Number(r.closed_epics),
    openedIssues: Number(r.opened_issues),
    closedIssues: Number(r.closed_issues),
    openedWeight: Number(r.opened_weight),
    closedWeight: Number(r.closed_weight),
  }));
}
