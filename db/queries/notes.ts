// Notes of one noteable (an issue, a merge request, a snippet or a commit): the page with its authors in one statement, and the writes.
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import { deleteAwardsOf } from './award-emoji.ts';
import { alerts, epics, issues, mergeRequests, namespaces, notes, projects, snippets, users, type AlertRow, type NoteRow } from '../schema/index.ts';
import { readableIssueNotesSql, readsMergeRequestsSql, visibleIssuesFilter, visibleSnippetsFilter, type Viewer } from './lib/access.ts';
import { fuzzySearch } from './lib/search.ts';

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Commit' | 'Epic' | 'AlertManagement::Alert';
type RowNoteableType = Exclude<NoteableType, 'Commit'>;
/** Issues, MRs and snippets are rows (by id); a commit is named by its SHA within the project whose notes these are. */
export type NoteableKey = { type: RowNoteableType; id: number } | { type: 'Commit'; projectId: number; commitId: string };

/** The table of a noteable that is a row (what a new note touches). */
const tableOf = (type: RowNoteableType) =>
  type === 'Issue' ? issues : type === 'MergeRequest' ? mergeRequests : type === 'Epic' ? epics : type === 'AlertManagement::Alert' ? alerts : snippets;

/** The noteable a stored note is on. */
export const keyOfNote = (n: Pick<NoteRow, 'noteableType' | 'noteableId' | 'projectId' | 'commitId'>): NoteableKey | null =>
  n.noteableType === 'Commit'
    ? n.projectId !== null && n.commitId !== null
      ? { type: 'Commit', projectId: n.projectId, commitId: n.commitId }
      : null
    : n.noteableId !== null
      ? { type: n.noteableType, id: n.noteableId }
      : null;

/** One string per noteable (`Issue:1`, `Commit:7:<sha>`): what batches and caches key on. */
export const noteableKeyString = (k: NoteableKey) => (k.type === 'Commit' ? `Commit:${k.projectId}:${k.commitId}` : `${k.type}:${k.id}`);

export type NoteOrder = { by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };
/** GitLab's activity_filter: all notes, comments only (no system notes), or system notes only. */
export type NoteKinds = 'all_notes' | 'only_comments' | 'only_activity';

const ofNoteable = (n: NoteableKey) =>
  n.type === 'Commit'
    ? and(eq(notes.noteableType, 'Commit'), eq(notes.projectId, n.projectId), eq(notes.commitId, n.commitId))
    : and(eq(notes.noteableType, n.type), eq(notes.noteableId, n.id));

const kindsFilter = (kinds: NoteKinds): SQL | undefined =>
  kinds === 'only_comments' ? eq(notes.system, false) : kinds === 'only_activity' ? eq(notes.system, true) : undefined;

/** Which notes of one noteable a listing holds: GitLab's activity_filter, and confidential ones only when readable. */
export interface NoteListFilter {
  kinds: NoteKinds;
  withConfidential: boolean;
}

const listWhere = (noteable: NoteableKey, f: NoteListFilter) =>
  and(ofNoteable(noteable), kindsFilter(f.kinds), f.withConfidential ? undefined : eq(notes.confidential, false));

/** Who resolved a resolvable note (Entities::Note's resolved_by). */
const resolver = alias(users, 'resolver');

const view = (db: Db, total: SQL<number | null> = sql<number | null>`NULL`) =>
  db
    .select({ note: notes, author: users, resolvedBy: resolver, total: total.mapWith((v) => (v == null ? null : Number(v))) })
    .from(notes)
    .leftJoin(users, eq(users.id, notes.authorId))
    .leftJoin(resolver, eq(resolver.id, notes.resolvedById))
    .$dynamic();

export type NoteView = Awaited<ReturnType<ReturnType<typeof view>['execute']>>[number];

/** A page of the noteable's notes with their authors and the total (capped at `countLimit`) in one statement. */
export async function listNotes(db: Db, noteable: NoteableKey, f: NoteListFilter, order: NoteOrder, limit: number, offset: number, countLimit: number) {
  const column = order.by === 'updated_at' ? notes.updatedAt : notes.createdAt;
  const dir = order.sort === 'asc' ? asc : desc;
  const where = listWhere(noteable, f);
  const total = sql<number | null>`(SELECT count(*) FROM (SELECT 1 FROM ${notes} WHERE ${where} LIMIT ${countLimit}) counted)`;
  return view(db, total).where(where).orderBy(dir(column), dir(notes.id)).limit(limit).offset(offset);
}

export async function countNotes(db: Db, noteable: NoteableKey, f: NoteListFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
    db
      .select({ one: sql`1` })
      .from(notes)
      .where(listWhere(noteable, f))
      .limit(limit)
      .as('counted'),
  );
  return row?.n ?? 0;
}

/** One note of the noteable (with its author), by id. */
export async function findNote(db: Db, noteable: NoteableKey, id: number): Promise<NoteView | undefined> {
  const [row] = await view(db).where(and(ofNoteable(noteable), eq(notes.id, id)));
  return row;
}

export async function findNoteById(db: Db, id: number): Promise<NoteView | undefined> {
  const [row] = await view(db).where(eq(notes.id, id));
  return row;
}

/** 40 hex characters, as GitLab's discussion ids (SecureRandom.hex(20)); encoded here because db/queries imports nothing from functions/. */
export const newDiscussionId = () => Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The id of the note this session inserted last: what the later statements of a creating batch point at. */
export const lastNoteIdSql = () => sql<number>`currval(pg_get_serial_sequence('notes', 'id'))`;

/**
 * Creating a note as statements for a batch (`ctx.batch`): a reply first turns its discussion's first note into a
 * DiscussionNote; the note is inserted and its noteable touched with the note's created_at (Note belongs_to
 * noteable, touch: true; a commit is no row and is not touched). Later statements of the batch point at the note
 * with lastNoteIdSql. `values.type` is the note's class when it is not a reply (a commit's LegacyDiffNote).
 */
export function insertNoteStatements(db: Db, values: Omit<typeof notes.$inferInsert, 'discussionId'>, noteable: NoteableKey, replyTo: string | null) {
  const touch =
    noteable.type === 'Commit'
      ? []
      : [
          db
            .update(tableOf(noteable.type))
            .set({ updatedAt: sql`(SELECT ${notes.createdAt} FROM ${notes} WHERE ${notes.id} = ${lastNoteIdSql()})` })
            .where(eq(tableOf(noteable.type).id, noteable.id)),
        ];
  return [
    ...(replyTo
      ? [
          db
            .update(notes)
            .set({ type: 'DiscussionNote' })
            .where(and(eq(notes.discussionId, replyTo), isNull(notes.type))),
        ]
      : []),
    db.insert(notes).values(replyTo ? { ...values, type: 'DiscussionNote', discussionId: replyTo } : { ...values, discussionId: newDiscussionId() }),
    ...touch,
  ];
}

/** The note this session inserted last, with its author: the read that ends a creating batch. */
export const lastInsertedNoteViewQuery = (db: Db) => view(db).where(eq(notes.id, lastNoteIdSql()));

export async function insertNote(tx: Db, values: Omit<typeof notes.$inferInsert, 'discussionId'>) {
  const [row] = await tx
    .insert(notes)
    .values({ ...values, discussionId: newDiscussionId() })
    .returning();
  return row!;
}

export async function updateNote(tx: Db, id: number, values: Partial<Pick<typeof notes.$inferInsert, 'body' | 'confidential' | 'updatedAt' | 'updatedById'>>) {
  await tx.update(notes).set(values).where(eq(notes.id, id));
}

/** The note and what hangs on it (award emoji; its to-dos go with the foreign key). */
export async function deleteNote(tx: Db, id: number) {
  await deleteAwardsOf(tx, 'Note', id);
  await tx.delete(notes).where(eq(notes.id, id));
}

/** A new note touches its noteable's updated_at (a commit is no row: Note#touch_noteable skips it). */
export async function touchNoteable(tx: Db, noteable: NoteableKey, at: Date) {
  if (noteable.type === 'Commit') return;
  const table = tableOf(noteable.type);
  await tx.update(table).set({ updatedAt: at }).where(eq(table.id, noteable.id));
}

/** All notes of a noteable being deleted, with their award emoji (their to-dos go with the foreign key). */
export async function deleteNotesOf(tx: Db, noteable: NoteableKey) {
  const ids = tx.select({ id: notes.id }).from(notes).where(ofNoteable(noteable));
  await deleteAwardsOf(tx, 'Note', ids);
  await tx.delete(notes).where(ofNoteable(noteable));
}

/** The notes of several noteables (oldest first, as GitLab's `fresh`) with their authors, in one statement. */
export async function findNotesOfNoteables(db: Db, keys: readonly NoteableKey[]): Promise<NoteView[]> {
  if (!keys.length) return [];
  const byType = new Map<RowNoteableType, number[]>();
  const commits: SQL[] = [];
  for (const k of keys) {
    if (k.type === 'Commit') commits.push(ofNoteable(k)!);
    else byType.set(k.type, [...(byType.get(k.type) ?? []), k.id]);
  }
  const where = or(...[...byType].map(([type, ids]) => and(eq(notes.noteableType, type), inArray(notes.noteableId, [...new Set(ids)]))), ...commits);
  return view(db).where(where).orderBy(asc(notes.createdAt), asc(notes.id));
}

/** The first note of a discussion (by its 40-hex discussion_id), with its author. */
export async function findDiscussionFirstNote(db: Db, discussionId: string): Promise<NoteView | undefined> {
  const [row] = await view(db).where(eq(notes.discussionId, discussionId)).orderBy(asc(notes.createdAt), asc(notes.id)).limit(1);
  return row;
}

/**
 * A reply into an existing discussion: the note joins the discussion (its discussion_id) as a DiscussionNote, and an
 * individual note being replied to becomes one too (GitLab's convert_to_discussion!).
 */
export async function insertReplyNote(tx: Db, values: Omit<typeof notes.$inferInsert, 'discussionId' | 'type'>, discussionId: string) {
  await tx
    .update(notes)
    .set({ type: 'DiscussionNote' })
    .where(and(eq(notes.discussionId, discussionId), isNull(notes.type)));
  const [row] = await tx
    .insert(notes)
    .values({ ...values, type: 'DiscussionNote', discussionId })
    .returning();
  return row!;
}

// ---- Discussions (GitLab's lib/api/discussions.rb) ----

/**
 * A page of the noteable's discussion ids, in the order of their first notes (Noteable#discussion_ids_relation:
 * grouped by discussion_id, ordered by MIN(created_at), MIN(id)), with the number of discussions (capped at
 * `countLimit`) in the same statement. Discussions whose notes the listing may not show are not counted.
 */
export async function listDiscussionIds(db: Db, noteable: NoteableKey, f: NoteListFilter, limit: number, offset: number, countLimit: number) {
  const where = listWhere(noteable, f);
  const total = sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${notes} WHERE ${where} GROUP BY ${notes.discussionId} LIMIT ${countLimit}) counted)`;
  const rows = await db
    .select({ id: notes.discussionId, total: total.mapWith(Number) })
    .from(notes)
    .where(where)
    .groupBy(notes.discussionId)
    .orderBy(sql`min(${notes.createdAt})`, sql`min(${notes.id})`)
    .limit(limit)
    .offset(offset);
  return rows;
}

export async function countDiscussions(db: Db, noteable: NoteableKey, f: NoteListFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
    db
      .select({ one: sql`1` })
      .from(notes)
      .where(listWhere(noteable, f))
      .groupBy(notes.discussionId)
      .limit(limit)
      .as('counted'),
  );
  return row?.n ?? 0;
}

/** The notes of these discussions of the noteable (with their authors and resolvers), oldest first (`fresh`). */
export async function findDiscussionNotes(db: Db, noteable: NoteableKey, discussionIds: readonly string[]): Promise<NoteView[]> {
  if (!discussionIds.length) return [];
  return view(db)
    .where(and(ofNoteable(noteable), inArray(notes.discussionId, [...new Set(discussionIds)])))
    .orderBy(asc(notes.createdAt), asc(notes.id));
}

/** Resolvable notes: DiffNotes and DiscussionNotes on merge requests that are not system notes (ResolvableNote). */
const resolvableSql = () => and(eq(notes.noteableType, 'MergeRequest'), inArray(notes.type, ['DiffNote', 'DiscussionNote']), eq(notes.system, false));

/**
 * Resolves (`by` a user) or unresolves one note (Note#resolve! / #unresolve!, which save the note: its updated_at
 * moves too). A resolved note is not resolved again.
 */
export async function setNoteResolved(db: Db, id: number, by: number | null, at: Date) {
  await db
    .update(notes)
    .set(by === null ? { resolvedAt: null, resolvedById: null, updatedAt: at } : { resolvedAt: at, resolvedById: by, updatedAt: at })
    .where(and(eq(notes.id, id), resolvableSql(), by === null ? isNotNull(notes.resolvedAt) : isNull(notes.resolvedAt)));
}

/**
 * Resolves (`by` a user) or unresolves every resolvable note of a discussion (ResolvableDiscussion#resolve! /
 * #unresolve!, an update_all: updated_at stays).
 */
export async function setDiscussionResolved(db: Db, noteable: NoteableKey, discussionId: string, by: number | null, at: Date) {
  await db
    .update(notes)
    .set(by === null ? { resolvedAt: null, resolvedById: null } : { resolvedAt: at, resolvedById: by })
    .where(
      and(ofNoteable(noteable), eq(notes.discussionId, discussionId), resolvableSql(), by === null ? isNotNull(notes.resolvedAt) : isNull(notes.resolvedAt)),
    );
}

/** Whether the merge request has resolvable notes, and how many of them are unresolved. */
export async function resolvableState(db: Db, mergeRequestId: number) {
  const [row] = await db
    .select({
      resolvable: sql<number>`count(*)`.mapWith(Number),
      unresolved: sql<number>`count(*) FILTER (WHERE ${notes.resolvedAt} IS NULL)`.mapWith(Number),
    })
    .from(notes)
    .where(and(eq(notes.noteableId, mergeRequestId), resolvableSql()));
  return { resolvable: row?.resolvable ?? 0, unresolved: row?.unresolved ?? 0 };
}

/** A system note on the alert (SystemNoteService: status, assignee, alert_issue_added), as a statement for a batch. */
export const alertSystemNoteStatement = (db: Db, alert: Pick<AlertRow, 'id' | 'projectId'>, authorId: number, body: string, action: string) =>
  db.insert(notes).values({
    noteableType: 'AlertManagement::Alert',
    noteableId: alert.id,
    projectId: alert.projectId,
    authorId,
    body,
    system: true,
    systemAction: action,
    discussionId: newDiscussionId(),
  });

/**
 * The search API's notes of one project (ProjectSearchResults#notes: NotesFinder with `search`, `.user`): comments,
 * never system notes, that Note.search matches, on the project's issues, merge requests, snippets and (when the
 * actor may read its code) commits that the actor may read (the SQL twins of the policy's read rules, confidential
 * notes only where readable), newest updated first, with the noteable's iid and the total in the statement.
 */
export function searchProjectNotes(db: Db, actor: Viewer, projectId: number, query: string, readsCode: boolean, limit: number, offset: number) {
  const readable = or(
    and(eq(notes.noteableType, 'Issue'), isNotNull(issues.id), visibleIssuesFilter(actor), readableIssueNotesSql(actor, notes.confidential)),
    and(eq(notes.noteableType, 'MergeRequest'), isNotNull(mergeRequests.id), readsMergeRequestsSql(actor), eq(notes.confidential, false)),
    and(eq(notes.noteableType, 'Snippet'), isNotNull(snippets.id), visibleSnippetsFilter(actor), eq(notes.confidential, false)),
    readsCode ? and(eq(notes.noteableType, 'Commit'), eq(notes.confidential, false)) : undefined,
  );
  return db
    .select({
      note: notes,
      author: users,
      resolvedBy: resolver,
      noteableIid: sql<number | null>`COALESCE(${issues.iid}, ${mergeRequests.iid})`,
      total: sql<number>`count(*) OVER ()`.mapWith(Number),
    })
    .from(notes)
    .innerJoin(projects, eq(projects.id, notes.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(issues, and(eq(notes.noteableType, 'Issue'), eq(issues.id, notes.noteableId)))
    .leftJoin(mergeRequests, and(eq(notes.noteableType, 'MergeRequest'), eq(mergeRequests.id, notes.noteableId)))
    .leftJoin(snippets, and(eq(notes.noteableType, 'Snippet'), eq(snippets.id, notes.noteableId)))
    .leftJoin(users, eq(users.id, notes.authorId))
    .leftJoin(resolver, eq(resolver.id, notes.resolvedById))
    .where(and(eq(notes.projectId, projectId), eq(notes.system, false), fuzzySearch(query, [notes.body]), readable))
    .orderBy(desc(notes.updatedAt), desc(notes.id))
    .limit(limit)
    .offset(offset);
}
