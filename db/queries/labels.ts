// Labels: lookups shared by the labels domain and the issues domain (labels=a,b on issue create/update).
import { and, asc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { mergeRequestProjectsFilter, visibleIssuesFilter, type Viewer } from './access.ts';
import type { Db } from '../client.ts';
import { issues, labelLinks, labels, mergeRequests, namespaces, projects, subscriptions } from '../schema/index.ts';
import type { LabelRow } from '../schema/labels.ts';
import { intArray, rows, textArray } from './raw.ts';
import { containsPattern } from './search.ts';
import { byParent, rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './window.ts';

/** GitLab's default colour for labels it creates on the fly (Label::DEFAULT_COLOR). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

interface RawLabel {
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

// ---- The labels API (project and group labels) ----


/** Where labels are looked up: a project (its own labels, optionally its ancestor groups') or a group. */
export type LabelScope =
  | { kind: 'project'; projectId: number; groupIds: readonly number[] }
  | { kind: 'group'; groupId: number; groupIds: readonly number[] };

/** The labels visible from the scope: the source's own plus those of `groupIds` (ancestors, when included). */
function scopeFilter(scope: LabelScope): SQL {
  const own = scope.kind === 'project' ? eq(labels.projectId, scope.projectId) : eq(labels.groupId, scope.groupId);
  return scope.groupIds.length ? or(own, inArray(labels.groupId, [...scope.groupIds]))! : own;
}

/**
 * GitLab's fuzzy_search: 3 characters or more match anywhere (ILIKE %q%), shorter ones match the whole value
 * (case-insensitively), over title and description.
 */
export function fuzzySearch(query: string, columns: readonly Parameters<typeof ilike>[0][]): SQL {
  const pattern = query.length >= 3 ? containsPattern(query) : query.replace(/[\\%_]/g, (m) => `\\${m}`);
  return or(...columns.map((c) => ilike(c, pattern)))!;
}

export interface LabelFilter {
  search?: string | undefined;
}

/** LabelsFinder's search, for REST's lists and GraphQL's Project.labels alike. */
const labelSearch = (search: string | undefined) => (search ? fuzzySearch(search, [labels.title, labels.description]) : undefined);

function listWhere(scope: LabelScope, filter: LabelFilter) {
  return and(scopeFilter(scope), labelSearch(filter.search));
}

/** Issue counts of a label in the scope (issues of the project, or of the group's projects), as the actor sees them. */
function issueCount(actor: Viewer, scope: LabelScope, state: 'opened' | 'closed') {
  const where = and(
    sql`${labelLinks.targetType} = 'Issue'`,
    sql`${labelLinks.labelId} = ${labels.id}`,
    eq(issues.state, state),
    scope.kind === 'project' ? eq(issues.projectId, scope.projectId) : sql`${scope.groupId} = ANY(${namespaces.traversalIds})`,
    visibleIssuesFilter(actor),
  );
  return sql<number>`(${sql`SELECT count(*) FROM ${labelLinks} JOIN ${issues} ON ${issues.id} = ${labelLinks.targetId} JOIN ${projects} ON ${projects.id} = ${issues.projectId} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${where}`})`.mapWith(Number);
}

/** Open merge requests with the label in the scope (target projects of the project, or the group's), as the actor may read them. */
function openMergeRequestCount(actor: Viewer, scope: LabelScope) {
  const where = and(
    sql`${labelLinks.targetType} = 'MergeRequest'`,
    sql`${labelLinks.labelId} = ${labels.id}`,
    sql`${mergeRequests.state} = 'opened'`,
    scope.kind === 'project' ? eq(mergeRequests.targetProjectId, scope.projectId) : sql`${scope.groupId} = ANY(${namespaces.traversalIds})`,
    mergeRequestProjectsFilter(actor),
  );
  return sql<number>`(${sql`SELECT count(*) FROM ${labelLinks} JOIN ${mergeRequests} ON ${mergeRequests.id} = ${labelLinks.targetId} JOIN ${projects} ON ${projects.id} = ${mergeRequests.targetProjectId} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${where}`})`.mapWith(Number);
}

export interface LabelWithCounts {
  label: LabelRow;
  openIssuesCount?: number;
  closedIssuesCount?: number;
  openMergeRequestsCount?: number;
  /** Whether the caller subscribed to the label (from this project, or at group level). */
  subscribed?: boolean;
}

/** Who asks whether they subscribed to a label, at which level (a project id, or null: the group level). */
export interface LabelSubscriber {
  userId: number;
  projectId: number | null;
}

/**
 * One page of labels, title order (GitLab's LabelsFinder), with issue counts in the same statement when asked, and
 * the `subscriber`'s subscription to each.
 */
export async function listLabels(
  db: Db,
  actor: Viewer,
  scope: LabelScope,
  filter: LabelFilter,
  withCounts: boolean,
  limit: number,
  offset: number,
  subscriber?: LabelSubscriber,
): Promise<LabelWithCounts[]> {
  const where = listWhere(scope, filter);
  const order = [asc(labels.title), asc(labels.id)];
  const subscribed = subscriber ? labelSubscribedSql(subscriber) : sql<boolean>`false`.mapWith(Boolean);
  if (!withCounts) {
    return db.select({ label: labels, subscribed }).from(labels).where(where).orderBy(...order).limit(limit).offset(offset);
  }
  return db
    .select({
      label: labels,
      openIssuesCount: issueCount(actor, scope, 'opened'),
      closedIssuesCount: issueCount(actor, scope, 'closed'),
      openMergeRequestsCount: openMergeRequestCount(actor, scope),
      subscribed,
    })
    .from(labels)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function countLabels(db: Db, scope: LabelScope, filter: LabelFilter, limit: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${labels} WHERE ${listWhere(scope, filter)} LIMIT ${limit}) t`);
  return Number(row?.n ?? 0);
}

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
    ? sql<string | null>`(${sql`SELECT n.name FROM ${labels} g JOIN ${namespaces} n ON n.id = g.group_id WHERE g.group_id = ANY(${sql`${`{${rename.groupIds.join(',')}}`}::int[]`}) AND g.title = ${rename.title} LIMIT 1`})`
    : sql<null>`NULL`;
  const m = findLabelMatch(scope, idOrTitle);
  const [row] = await db.select({ label: labels, groupWithTitle }).from(labels).where(m.where).orderBy(...m.order).limit(1);
  if (!row) return undefined;
  return rename ? row : row.label;
}

/** findLabel with the `subscriber`'s subscription to the label, in the same statement. */
export async function findLabelWithSubscription(db: Db, scope: LabelScope, idOrTitle: string, subscriber: LabelSubscriber): Promise<LabelWithCounts | undefined> {
  const m = findLabelMatch(scope, idOrTitle);
  const [row] = await db.select({ label: labels, subscribed: labelSubscribedSql(subscriber) }).from(labels).where(m.where).orderBy(...m.order).limit(1);
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
 * Inserts a label unless one with the title is already available in the scope (own or ancestors'): undefined then
 * (GitLab's 409 "Label already exists"). One statement; a concurrent insert of the same title loses on the unique
 * index and reads as undefined too.
 */
export async function insertLabel(
  db: Db,
  scope: LabelScope,
  values: { title: string; color: string; description: string | null; priority: number | null },
): Promise<LabelRow | undefined> {
  const source = scope.kind === 'project' ? { projectId: scope.projectId, groupId: null } : { projectId: null, groupId: scope.groupId };
  const found = await rows<RawLabel>(
    db,
    sql`INSERT INTO labels (project_id, group_id, title, color, description, priority)
      SELECT ${source.projectId}::int, ${source.groupId}::int, ${values.title}, ${values.color}, ${values.description}, ${values.priority}::int
      WHERE NOT EXISTS (SELECT 1 FROM ${labels} WHERE ${scopeFilter(scope)} AND ${labels.title} = ${values.title})
      ON CONFLICT DO NOTHING
      RETURNING *`,
  );
  return found[0] ? labelFromRaw(found[0]) : undefined;
}

export async function updateLabel(db: Db, id: number, changes: Partial<Pick<LabelRow, 'title' | 'color' | 'description' | 'priority'>>): Promise<LabelRow | undefined> {
  const [row] = await db
    .update(labels)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(labels.id, id))
    .returning();
  return row;
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

/** Deletes the label and its subscriptions (polymorphic, no foreign key) in one statement. */
export async function deleteLabel(db: Db, id: number): Promise<boolean> {
  const deleted = await rows<{ id: number }>(
    db,
    sql`WITH d AS (DELETE FROM ${labels} WHERE ${labels.id} = ${id} RETURNING ${labels.id}),
      s AS (DELETE FROM ${subscriptions} WHERE subscribable_type = 'Label' AND subscribable_id IN (SELECT id FROM d))
      SELECT id FROM d`,
  );
  return deleted.length > 0;
}

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

// ---- Subscriptions (GitLab's Subscribable over Label) ----
//
// A label subscription belongs to a user and a project (subscribing through a project to one of its labels or an
// ancestor group's) or to no project (subscribing through the group). Labels have no participants, so only an
// explicit subscription row counts. subscriptions holds one row per user and label: the level it was last set at.

/**
 * Whether the subscriber subscribed to the `labels` row in scope at their level. The label's id is written qualified:
 * drizzle drops the table name of a single-table select's columns, and a bare "id" would be the subscription's.
 */
const labelSubscribedSql = (s: LabelSubscriber) =>
  sql<boolean>`EXISTS (SELECT 1 FROM ${subscriptions} ls WHERE ls.subscribable_type = 'Label' AND ls.subscribable_id = ${sql.raw('"labels"."id"')} AND ls.user_id = ${s.userId} AND ls.project_id IS NOT DISTINCT FROM ${s.projectId}::int AND ls.subscribed)`.mapWith(Boolean);

/** Subscribes or unsubscribes the user from the label at this level (Subscribable#subscribe / #unsubscribe). */
export async function setLabelSubscription(db: Db, labelId: number, userId: number, projectId: number | null, subscribed: boolean) {
  await db
    .insert(subscriptions)
    .values({ subscribableType: 'Label', subscribableId: labelId, userId, projectId, subscribed })
    .onConflictDoUpdate({
      target: [subscriptions.subscribableType, subscriptions.subscribableId, subscriptions.userId],
      set: { subscribed, projectId, updatedAt: new Date() },
    });
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
