// Labels: lookups shared by the labels domain and the issues domain (labels=a,b on issue create/update): labels found
// or created by title and linked in a batch, the scope a label is looked up in, GitLab's find_label, fuzzy search.
// The labels API's listing is in labels/listing.ts, its writes in labels/writes.ts, GraphQL's reads over several
// projects in labels/of-projects.ts; label subscriptions in notifications/label-subscriptions.ts (the subscriptions
// table is the notifications domain's).
import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { labels, namespaces } from '../schema/index.ts';
import type { LabelRow } from '../schema/labels.ts';
import { intArray, rows, textArray } from './lib/raw.ts';
import { fuzzySearch } from './lib/search.ts';
import type { LabelWithCounts } from './labels/listing.ts';
import { type LabelSubscriber, labelSubscribedSql } from './notifications/label-subscriptions.ts';

/** GitLab's default colour for labels it creates on the fly (Label::DEFAULT_COLOR). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

export interface RawLabel {
  id: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  color: string;
  description: string | null;
  priority: number | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export function labelFromRaw(r: RawLabel): LabelRow {
  return {
    id: Number(r.id),
    projectId: r.project_id === null ? null : Number(r.project_id),
    groupId: r.group_id === null ? null : Number(r.group_id),
    title: r.title,
    color: r.color,
    description: r.description,
    priority: r.priority === null ? null : Number(r.priority),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** Labels available to a project (its own, then its ancestor groups' nearest first) with one of `titles`. */
function availableByTitle(projectId: number, titles: readonly string[]) {
  return sql`SELECT DISTINCT ON (l.title) l.*
    FROM projects p JOIN namespaces n ON n.id = p.namespace_id
    JOIN labels l ON (l.project_id = p.id OR l.group_id = ANY(n.traversal_ids))
    WHERE p.id = ${projectId} AND l.title = ANY(${textArray(titles)})
    ORDER BY l.title, (l.project_id IS NULL), array_position(n.traversal_ids, l.group_id) DESC NULLS LAST`;
}

/**
 * For each title (exact, case-sensitive as GitLab), the project's label or the nearest ancestor group's label with
 * that title; missing ones are created as project labels with GitLab's default colour (Labels::FindOrCreateService).
 * One statement (a data-modifying CTE); a second one only when a concurrent request created one of the labels
 * meanwhile (insert ... on conflict do nothing on the partial unique index, then reselect). Rows come back in the
 * order of the first occurrence of each title; duplicate and empty titles are ignored.
 */
export async function findOrCreateProjectLabels(db: Db, projectId: number, titles: readonly string[]): Promise<LabelRow[]> {
  const wanted = [...new Set(titles)].filter((t) => t.length > 0);
  if (wanted.length === 0) return [];
  const found = await rows<RawLabel>(
    db,
    sql`WITH existing AS (${availableByTitle(projectId, wanted)}),
      inserted AS (
        INSERT INTO labels (project_id, title, color)
        SELECT ${projectId}, w.title, ${DEFAULT_LABEL_COLOR}
        FROM unnest(${textArray(wanted)}) AS w(title)
        WHERE EXISTS (SELECT 1 FROM projects WHERE id = ${projectId})
          AND NOT EXISTS (SELECT 1 FROM existing e WHERE e.title = w.title)
        ON CONFLICT (project_id, title) WHERE project_id IS NOT NULL DO NOTHING
        RETURNING *)
      SELECT * FROM existing UNION ALL SELECT * FROM inserted`,
  );
  let result = found.map(labelFromRaw);
  if (new Set(result.map((l) => l.title)).size < wanted.length) {
    // A concurrent request inserted some of them between our snapshot and the insert: read them now (committed).
    result = (await rows<RawLabel>(db, availableByTitle(projectId, wanted))).map(labelFromRaw);
  }
  const byTitle = new Map(result.map((l) => [l.title, l]));
  return wanted.flatMap((t) => byTitle.get(t) ?? []);
}

/**
 * findOrCreateProjectLabels then linking them to a target, as two statements for a batch (`ctx.batch`) whose target
 * id may be SQL (e.g. the `currval` of the row the batch inserted): the missing labels are inserted (a concurrent
 * insert of the same title is waited for by ON CONFLICT), then the second statement, with a fresh snapshot, links
 * what is available by title (the project's label, else the nearest ancestor group's).
 */
export function findOrCreateLabelLinkStatements(db: Db, projectId: number, titles: readonly string[], target: { type: 'Issue' | 'MergeRequest'; id: SQL }) {
  const wanted = [...new Set(titles)].filter((t) => t.length > 0);
  return [
    db.execute(
      sql`WITH existing AS (${availableByTitle(projectId, wanted)})
        INSERT INTO labels (project_id, title, color)
        SELECT ${projectId}, w.title, ${DEFAULT_LABEL_COLOR}
        FROM unnest(${textArray(wanted)}) AS w(title)
        WHERE EXISTS (SELECT 1 FROM projects WHERE id = ${projectId})
          AND NOT EXISTS (SELECT 1 FROM existing e WHERE e.title = w.title)
        ON CONFLICT (project_id, title) WHERE project_id IS NOT NULL DO NOTHING`,
    ),
    db.execute(
      sql`INSERT INTO label_links (label_id, target_type, target_id)
        SELECT a.id, ${target.type}, ${target.id} FROM (${availableByTitle(projectId, wanted)}) a
        ON CONFLICT DO NOTHING`,
    ),
  ] as const;
}

/**
 * Links the labels with these ids that are available to the project (its own, or an ancestor group's) to the issue
 * the same batch inserted (`issueId`: its id SQL); other ids are dropped, as Issues::CreateService's label_ids.
 */
export function linkAvailableLabelsStatement(db: Db, projectId: number, labelIds: readonly number[], issueId: SQL<number>) {
  return db.execute(
    sql`INSERT INTO label_links (label_id, target_type, target_id)
      SELECT l.id, 'Issue', ${issueId}
      FROM projects p JOIN namespaces n ON n.id = p.namespace_id
      JOIN labels l ON (l.project_id = p.id OR l.group_id = ANY(n.traversal_ids))
      WHERE p.id = ${projectId} AND l.id = ANY(${intArray(labelIds)})
      ON CONFLICT DO NOTHING`,
  );
}

/** Where labels are looked up: a project (its own labels, optionally its ancestor groups') or a group. */
export type LabelScope = { kind: 'project'; projectId: number; groupIds: readonly number[] } | { kind: 'group'; groupId: number; groupIds: readonly number[] };

/** The labels visible from the scope: the source's own plus those of `groupIds` (ancestors, when included). */
export function scopeFilter(scope: LabelScope): SQL {
  const own = scope.kind === 'project' ? eq(labels.projectId, scope.projectId) : eq(labels.groupId, scope.groupId);
  return scope.groupIds.length ? or(own, inArray(labels.groupId, [...scope.groupIds]))! : own;
}

export interface LabelFilter {
  search?: string | undefined;
}

/** LabelsFinder's search (Label.search: fuzzy over title and description), for REST's lists and GraphQL's Project.labels alike. */
export const labelSearch = (search: string | undefined) => (search ? fuzzySearch(search, [labels.title, labels.description]) : undefined);

/**
 * GitLab's find_label: by id first, else by exact title, among the labels of the scope. A project's own label
 * wins over a group's with the same title, the nearest group over farther ones.
 */
export async function findLabel(db: Db, scope: LabelScope, idOrTitle: string): Promise<LabelRow | undefined>;
export async function findLabel(
  db: Db,
  scope: LabelScope,
  idOrTitle: string,
  rename: { title: string; groupIds: readonly number[] } | undefined,
): Promise<{ label: LabelRow; groupWithTitle: string | null } | undefined>;
export async function findLabel(db: Db, scope: LabelScope, idOrTitle: string, rename?: { title: string; groupIds: readonly number[] }) {
  const groupWithTitle = rename?.groupIds.length
    ? sql<
        string | null
      >`(${sql`SELECT n.name FROM ${labels} g JOIN ${namespaces} n ON n.id = g.group_id WHERE g.group_id = ANY(${sql`${`{${rename.groupIds.join(',')}}`}::int[]`}) AND g.title = ${rename.title} LIMIT 1`})`
    : sql<null>`NULL`;
  const m = findLabelMatch(scope, idOrTitle);
  const [row] = await db
    .select({ label: labels, groupWithTitle })
    .from(labels)
    .where(m.where)
    .orderBy(...m.order)
    .limit(1);
  if (!row) return undefined;
  return rename ? row : row.label;
}

/** findLabel with the `subscriber`'s subscription to the label, in the same statement. */
export async function findLabelWithSubscription(
  db: Db,
  scope: LabelScope,
  idOrTitle: string,
  subscriber: LabelSubscriber,
): Promise<LabelWithCounts | undefined> {
  const m = findLabelMatch(scope, idOrTitle);
  const [row] = await db
    .select({ label: labels, subscribed: labelSubscribedSql(subscriber) })
    .from(labels)
    .where(m.where)
    .orderBy(...m.order)
    .limit(1);
  return row;
}

/** GitLab's find_label as a condition and an order: by id first, else by exact title; own label, then nearest group. */
function findLabelMatch(scope: LabelScope, idOrTitle: string) {
  const asId = /^\d+$/.test(idOrTitle) && Number(idOrTitle) <= 2_147_483_647 ? Number(idOrTitle) : null;
  const match = asId === null ? eq(labels.title, idOrTitle) : or(eq(labels.id, asId), eq(labels.title, idOrTitle));
  const nearness = sql`array_position(${sql`${`{${scope.groupIds.join(',')}}`}::int[]`}, ${labels.groupId})`;
  return {
    where: and(scopeFilter(scope), match),
    order: [...(asId === null ? [] : [sql`(${labels.id} = ${asId}) DESC`]), sql`(${labels.projectId} IS NULL)`, sql`${nearness} DESC NULLS FIRST`],
  };
}

/**
 * findLabel, plus (when a project label is to be renamed) the name of an ancestor group that already has a label
 * with the new title (a project label may not take it): one statement.
 */
export async function findLabelForUpdate(
  db: Db,
  scope: LabelScope,
  idOrTitle: string,
  rename?: { title: string; groupIds: readonly number[] },
): Promise<{ label: LabelRow; groupWithTitle: string | null } | undefined> {
  return findLabel(db, scope, idOrTitle, rename ?? { title: '', groupIds: [] });
}
