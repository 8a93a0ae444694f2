// Personal and project snippets with their files. A snippet is read as a "view" (the row, its author, its project's
// full path, the paths of its files in order) in one statement; lists apply the policy's visibility filter in SQL.
import { and, desc, eq, gte, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { projectAccessLevelSql, projectFeaturesSql, Visibility, visibleSnippetsFilter, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import { deleteAwardsOf } from './award-emoji.ts';
import { byParent, rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './lib/window.ts';
import { namespaces, projects, snippetFiles, snippets, users, type SnippetRow } from '../schema/index.ts';
import { fuzzySearch } from './lib/search.ts';

/** The paths of a snippet's files, in order (contents stay out: only raw endpoints read them). */
const filePathsSql = sql<
  string[]
>`(SELECT COALESCE(json_agg(sf.path ORDER BY sf.position), '[]'::json) FROM ${snippetFiles} sf WHERE sf.snippet_id = ${snippets.id})`;

function viewQuery(db: Db) {
  return db
    .select({ snippet: snippets, author: users, projectPath: projects.pathWithNamespace, files: filePathsSql })
    .from(snippets)
    .innerJoin(users, eq(users.id, snippets.authorId))
    .leftJoin(projects, eq(projects.id, snippets.projectId))
    .leftJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .$dynamic();
}

export type SnippetViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

/** Which snippets a listing covers (before visibility); `search`: every readable one that Snippet.search matches. */
export type SnippetListFilter =
  { kind: 'author'; authorId: number } | { kind: 'public' } | { kind: 'project'; projectId: number } | { kind: 'search'; query: string };

/** The snippet's `file_name`: its first file's path. */
const firstFileSql = sql<string>`(SELECT sf.path FROM ${snippetFiles} sf WHERE sf.snippet_id = ${snippets.id} ORDER BY sf.position LIMIT 1)`;

/** A REST listing as SnippetsFinder's parameters: one filter (finderWhere) for REST and GraphQL. */
const listWhere = (actor: Viewer, f: SnippetListFilter): SQL | undefined =>
  f.kind === 'search'
    ? and(finderWhere(actor, {}), fuzzySearch(f.query, [snippets.title, snippets.description, firstFileSql]))
    : finderWhere(
        actor,
        f.kind === 'author'
          ? { type: 'personal', authorId: f.authorId }
          : f.kind === 'public'
            ? { type: 'personal', visibilityLevel: Visibility.public }
            : { projectId: f.projectId },
      );

/**
 * GitLab's `fresh` order (created_at, newest first; ids grow with creation, and the indexes end in id); search results
 * newest updated first (SnippetSearchResults).
 */
export function listSnippetViews(db: Db, actor: Viewer, f: SnippetListFilter, limit: number, offset: number): Promise<SnippetViewRow[]> {
  const order = f.kind === 'search' ? [desc(snippets.updatedAt), desc(snippets.id)] : [desc(snippets.id)];
  return viewQuery(db)
    .where(listWhere(actor, f))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function countSnippets(db: Db, actor: Viewer, f: SnippetListFilter, limit: number): Promise<number> {
  const counted = db
    .select({ one: sql`1` })
    .from(snippets)
    .innerJoin(users, eq(users.id, snippets.authorId))
    .leftJoin(projects, eq(projects.id, snippets.projectId))
    .leftJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(listWhere(actor, f))
    .limit(limit);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(counted.as('counted'));
  return row?.n ?? 0;
}

/** A personal snippet by id, or a project's snippet by id (no visibility check: the service asks the policy). */
export async function findSnippetView(db: Db, id: number, projectId: number | null): Promise<SnippetViewRow | undefined> {
  const owner = projectId === null ? isNull(snippets.projectId) : eq(snippets.projectId, projectId);
  const [row] = await viewQuery(db)
    .where(and(eq(snippets.id, id), owner))
    .limit(1);
  return row;
}

export interface SnippetFile {
  path: string;
  content: string;
}

/** The first file (the one `file_name` names), or one by path. */
export async function findSnippetFile(db: Db, snippetId: number, path?: string): Promise<SnippetFile | undefined> {
  const [row] = await db
    .select({ path: snippetFiles.path, content: snippetFiles.content })
    .from(snippetFiles)
    .where(and(eq(snippetFiles.snippetId, snippetId), path !== undefined ? eq(snippetFiles.path, path) : undefined))
    .orderBy(snippetFiles.position)
    .limit(1);
  return row;
}

/** All files with their contents, in order, locked for an update of the snippet. */
export function lockSnippetFiles(tx: Db, snippetId: number): Promise<SnippetFile[]> {
  return tx
    .select({ path: snippetFiles.path, content: snippetFiles.content })
    .from(snippetFiles)
    .where(eq(snippetFiles.snippetId, snippetId))
    .orderBy(snippetFiles.position)
    .for('update');
}

export interface NewSnippet {
  type: 'PersonalSnippet' | 'ProjectSnippet';
  projectId: number | null;
  authorId: number;
  title: string;
  description: string | null;
  visibilityLevel: number;
}

/** The snippet and its files (run it in a transaction: two statements). */
export async function insertSnippet(tx: Db, values: NewSnippet, files: readonly SnippetFile[]): Promise<SnippetRow> {
  const [row] = await tx.insert(snippets).values(values).returning();
  if (files.length) await tx.insert(snippetFiles).values(files.map((f, position) => ({ snippetId: row!.id, position, path: f.path, content: f.content })));
  return row!;
}

export interface SnippetChanges {
  title?: string | undefined;
  description?: string | null | undefined;
  visibilityLevel?: number | undefined;
}

export async function updateSnippet(tx: Db, id: number, c: SnippetChanges): Promise<SnippetRow | undefined> {
  const [row] = await tx
    .update(snippets)
    .set({ title: c.title, description: c.description, visibilityLevel: c.visibilityLevel, updatedAt: sql`now()` })
    .where(eq(snippets.id, id))
    .returning();
  return row;
}

/** Replaces the snippet's files with `files`, in their order. */
export async function replaceSnippetFiles(tx: Db, snippetId: number, files: readonly SnippetFile[]): Promise<void> {
  await tx.delete(snippetFiles).where(eq(snippetFiles.snippetId, snippetId));
  if (files.length) await tx.insert(snippetFiles).values(files.map((f, position) => ({ snippetId, position, path: f.path, content: f.content })));
}

/** Deletes the snippet and its award emoji (its files go with it: the foreign key cascades). */
export async function deleteSnippet(db: Db, id: number): Promise<boolean> {
  await deleteAwardsOf(db, 'Snippet', id);
  const gone = await db.delete(snippets).where(eq(snippets.id, id)).returning({ id: snippets.id });
  return gone.length > 0;
}

// ---- GraphQL reads (Query.snippets, Snippet.blobs) ----

/** A snippet with what its GraphQL type needs: the view, plus its project's facts for the policy (null for personal). */
function factsQuery(db: Db, actor: Viewer) {
  return db
    .select({
      snippet: snippets,
      author: users,
      projectPath: projects.pathWithNamespace,
      files: filePathsSql,
      projectVisibility: projects.visibilityLevel,
      projectArchived: projects.archived,
      projectFeatures: projectFeaturesSql(),
      projectAccess: sql<number>`CASE WHEN ${snippets.projectId} IS NULL THEN 0 ELSE ${projectAccessLevelSql(actor)} END`.mapWith(Number),
    })
    .from(snippets)
    .innerJoin(users, eq(users.id, snippets.authorId))
    .leftJoin(projects, eq(projects.id, snippets.projectId))
    .leftJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .$dynamic();
}

export type SnippetFactsRow = Awaited<ReturnType<ReturnType<typeof factsQuery>['execute']>>[number];

/** SnippetsFinder's filters (Query.snippets): all optional, combined with AND, always within what the actor may read. */
export interface SnippetFinderFilter {
  ids?: readonly number[] | undefined;
  authorId?: number | undefined;
  projectId?: number | undefined;
  type?: 'personal' | 'project' | undefined;
  /** Explore: personal snippets that are public, or internal (for those who see internal ones). */
  explore?: boolean | undefined;
  visibilityLevel?: number | undefined;
}

function finderWhere(actor: Viewer, f: SnippetFinderFilter): SQL | undefined {
  const personal = f.type === 'personal' || f.explore === true;
  return and(
    visibleSnippetsFilter(actor),
    f.ids ? inArray(snippets.id, [...f.ids]) : undefined,
    f.authorId !== undefined ? eq(snippets.authorId, f.authorId) : undefined,
    f.projectId !== undefined ? eq(snippets.projectId, f.projectId) : undefined,
    personal ? isNull(snippets.projectId) : undefined,
    f.type === 'project' ? isNotNull(snippets.projectId) : undefined,
    // Explore lists what is open to the reader (never private snippets, not even its own).
    f.explore === true ? gte(snippets.visibilityLevel, Visibility.internal) : undefined,
    f.visibilityLevel !== undefined ? eq(snippets.visibilityLevel, f.visibilityLevel) : undefined,
  );
}

/** One keyset page of the snippets the actor may read (one statement: author, project facts and file paths joined). */
export function listSnippetFactsPage(db: Db, actor: Viewer, f: SnippetFinderFilter, keyset: KeysetPage): Promise<SnippetFactsRow[]> {
  const page = keysetSql(snippets.id, keyset);
  return factsQuery(db, actor)
    .where(and(finderWhere(actor, f), page.where))
    .orderBy(page.orderBy)
    .limit(page.limit);
}

/**
 * The same keyset page for each of several authors or projects (User.snippets, Project.snippets under a list), in one
 * statement: the finder's filter and the policy's visibility as listSnippetFactsPage, the first `page.limit` rows of
 * each parent in the page's order. One list per parent, in the order asked.
 */
export async function listSnippetFactsPages(
  db: Db,
  actor: Viewer,
  f: Omit<SnippetFinderFilter, 'authorId' | 'projectId'>,
  parent: 'authorId' | 'projectId',
  parentIds: readonly number[],
  keyset: KeysetPage,
): Promise<SnippetFactsRow[][]> {
  const page = keysetSql(snippets.id, keyset);
  if (!parentIds.length) return [];
  const column = parent === 'authorId' ? snippets.authorId : snippets.projectId;
  // The tables factsQuery joins (finderWhere's visibility reads them), each row numbered within its parent.
  const w = singleParentLimit(
    db
      .select({ wid: sql<number>`${snippets.id}`.as('wid'), rn: rowNumber(column, page.orderBy) })
      .from(snippets)
      .innerJoin(users, eq(users.id, snippets.authorId))
      .leftJoin(projects, eq(projects.id, snippets.projectId))
      .leftJoin(namespaces, eq(namespaces.id, projects.namespaceId))
      .where(and(finderWhere(actor, f), inArray(column, [...parentIds]), page.where))
      .$dynamic(),
    parentIds.length === 1,
    page,
  ).as('w');
  const found = await factsQuery(db, actor)
    .innerJoin(w, eq(w.wid, snippets.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(column, w.rn);
  return byParent(parentIds, found, (r) => (parent === 'authorId' ? r.snippet.authorId : r.snippet.projectId!));
}

/** One snippet by id with its facts (no visibility check: the caller asks the policy). */
export async function findSnippetFacts(db: Db, actor: Viewer, id: number): Promise<SnippetFactsRow | undefined> {
  const [row] = await factsQuery(db, actor).where(eq(snippets.id, id)).limit(1);
  return row;
}

/** The files (with contents) of several snippets, in order: one query for a page of snippets. */
export function findFilesOfSnippets(db: Db, snippetIds: readonly number[]): Promise<Array<SnippetFile & { snippetId: number }>> {
  return db
    .select({ snippetId: snippetFiles.snippetId, path: snippetFiles.path, content: snippetFiles.content })
    .from(snippetFiles)
    .where(inArray(snippetFiles.snippetId, [...snippetIds]))
    .orderBy(snippetFiles.snippetId, snippetFiles.position);
}

/** The project of a snippet (null for a personal snippet; undefined when there is no such snippet). */
export async function findSnippetProjectId(db: Db, id: number): Promise<number | null | undefined> {
  const [row] = await db.select({ projectId: snippets.projectId }).from(snippets).where(eq(snippets.id, id)).limit(1);
  return row ? row.projectId : undefined;
}
