// Participable for issues and merge requests: who takes part in each (author, assignees, note authors).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { issueAssignees, issues, mergeRequestAssignees, mergeRequests, notes, users } from '../../schema/index.ts';

/**
 * Who takes part in each issue, in one statement: its author, its assignees (by id), then the authors of its user
 * (non-system) notes in order, each row with the user and, for a note's author, the note's facts the policy reads
 * (the caller keeps the notes the actor may read and the users it may see, and drops repeats).
 */
export async function findParticipants(db: Db, issueIds: readonly number[], type: 'Issue' | 'MergeRequest' = 'Issue') {
  if (!issueIds.length) return [];
  const ids = [...new Set(issueIds)];
  // The same three parts for a merge request (`type`): its author, its assignees, the authors of its user notes.
  const t =
    type === 'Issue'
      ? { table: issues, id: issues.id, authorId: issues.authorId }
      : { table: mergeRequests, id: mergeRequests.id, authorId: mergeRequests.authorId };
  const a =
    type === 'Issue'
      ? { table: issueAssignees, parentId: issueAssignees.issueId, userId: issueAssignees.userId }
      : { table: mergeRequestAssignees, parentId: mergeRequestAssignees.mergeRequestId, userId: mergeRequestAssignees.userId };
  const authors = db
    .select({
      issueId: sql<number>`${t.id}`.as('issue_id'),
      userId: sql<number>`${t.authorId}`.as('user_id'),
      ord: sql<number>`0`.as('ord'),
      pos: sql<number>`0`.as('pos'),
      noteAuthorId: sql<number | null>`NULL::int`.as('note_author_id'),
      confidential: sql<boolean | null>`NULL::boolean`.as('confidential'),
    })
    .from(t.table)
    .where(inArray(t.id, ids));
  const assignees = db
    .select({
      issueId: sql<number>`${a.parentId}`.as('issue_id'),
      userId: sql<number>`${a.userId}`.as('user_id'),
      ord: sql<number>`1`.as('ord'),
      pos: sql<number>`${a.userId}`.as('pos'),
      noteAuthorId: sql<number | null>`NULL::int`.as('note_author_id'),
      confidential: sql<boolean | null>`NULL::boolean`.as('confidential'),
    })
    .from(a.table)
    .where(inArray(a.parentId, ids));
  const commenters = db
    .select({
      issueId: sql<number>`${notes.noteableId}`.as('issue_id'),
      userId: sql<number>`${notes.authorId}`.as('user_id'),
      ord: sql<number>`2`.as('ord'),
      pos: sql<number>`${notes.id}`.as('pos'),
      noteAuthorId: sql<number | null>`${notes.authorId}`.as('note_author_id'),
      confidential: sql<boolean | null>`${notes.confidential}`.as('confidential'),
    })
    .from(notes)
    .where(and(eq(notes.noteableType, type), inArray(notes.noteableId, ids), eq(notes.system, false)));
  const p = authors.unionAll(assignees).unionAll(commenters).as('p');
  const found = await db
    .select({ issueId: p.issueId, user: users, noteAuthorId: p.noteAuthorId, confidential: p.confidential })
    .from(p)
    .innerJoin(users, eq(users.id, p.userId))
    .orderBy(p.issueId, p.ord, p.pos);
  return found.map(({ noteAuthorId, confidential, ...r }) => ({
    ...r,
    issueId: Number(r.issueId),
    note: noteAuthorId === null ? null : { authorId: Number(noteAuthorId), confidential: confidential === true },
  }));
}
