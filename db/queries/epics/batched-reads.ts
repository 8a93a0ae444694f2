// Reads over many epics in one statement each, for GraphQL's fields: children and issue counts, whether the user
// subscribed, the participants.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { epicIssues, epics, notes, subscriptions, users } from '../../schema/index.ts';

/** Epics' children counts and issue counts, for hasChildren / hasIssues. */
export async function epicRelationCounts(db: Db, epicIds: readonly number[]) {
  if (!epicIds.length) return [];
  return db
    .select({
      id: epics.id,
      // Nested sql: a single-table select drops table names from top-level columns (`id` would bind to the subquery's).
      children: sql<number>`(${sql`SELECT count(*) FROM ${epics} c WHERE c.parent_id = ${epics.id}`})`.mapWith(Number),
      issues: sql<number>`(${sql`SELECT count(*) FROM ${epicIssues} ei WHERE ei.epic_id = ${epics.id}`})`.mapWith(Number),
    })
    .from(epics)
    .where(inArray(epics.id, [...epicIds]));
}

/**
 * Epic#subscribed? for each epic: an explicit subscription row wins, else participation (the author, or a commenter
 * once epic notes exist). Epics have no subscription endpoint yet, so only the author counts today.
 */
export async function epicsSubscribed(db: Db, epicIds: readonly number[], userId: number): Promise<Map<number, boolean>> {
  if (!epicIds.length) return new Map();
  const rows = await db
    .select({
      id: epics.id,
      subscribed:
        sql<boolean>`(${sql`COALESCE((SELECT s.subscribed FROM ${subscriptions} s WHERE s.subscribable_type = 'Epic' AND s.subscribable_id = ${epics.id} AND s.user_id = ${userId}), ${epics.authorId} IS NOT DISTINCT FROM ${userId})`})`.mapWith(
          Boolean,
        ),
    })
    .from(epics)
    .where(inArray(epics.id, [...epicIds]));
  return new Map(rows.map((r) => [r.id, r.subscribed]));
}

/**
 * Participable for epics (Issuable's `participant :author, :notes_with_associations`; an epic has no assignees): the
 * author, then the authors of its user notes in note order, with what the caller needs to keep only the notes the
 * actor may read. One statement for all the epics; the rows have findParticipantsOfIssues' shape.
 */
export async function findParticipantsOfEpics(db: Db, epicIds: readonly number[]) {
  if (!epicIds.length) return [];
  const ids = [...new Set(epicIds)];
  const authors = db
    .select({
      epicId: sql<number>`${epics.id}`.as('epic_id'),
      userId: sql<number>`${epics.authorId}`.as('user_id'),
      pos: sql<number>`0`.as('pos'),
      noteAuthorId: sql<number | null>`NULL::int`.as('note_author_id'),
      confidential: sql<boolean | null>`NULL::boolean`.as('confidential'),
    })
    .from(epics)
    .where(inArray(epics.id, ids));
  const commenters = db
    .select({
      epicId: sql<number>`${notes.noteableId}`.as('epic_id'),
      userId: sql<number>`${notes.authorId}`.as('user_id'),
      pos: sql<number>`${notes.id}`.as('pos'),
      noteAuthorId: sql<number | null>`${notes.authorId}`.as('note_author_id'),
      confidential: sql<boolean | null>`${notes.confidential}`.as('confidential'),
    })
    .from(notes)
    .where(and(eq(notes.noteableType, 'Epic'), inArray(notes.noteableId, ids), eq(notes.system, false)));
  const p = authors.unionAll(commenters).as('p');
  const found = await db
    .select({ epicId: p.epicId, user: users, noteAuthorId: p.noteAuthorId, confidential: p.confidential })
    .from(p)
    .innerJoin(users, eq(users.id, p.userId))
    .orderBy(p.epicId, p.pos);
  return found.map(({ noteAuthorId, confidential, ...r }) => ({
    ...r,
    epicId: Number(r.epicId),
    note: noteAuthorId === null ? null : { authorId: Number(noteAuthorId), confidential: confidential === true },
  }));
}
