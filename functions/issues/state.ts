// Closing and reopening an issue (Issues::CloseService, Issues::ReopenService): the state, its event, the resource
// state event, the system note and the notification, as statements. The issue update runs them in its transaction
// (the issue row locked); a merge runs them in its batch for the issues the MR closes (MergeRequests::
// PostMergeService), with the note naming the MR. One spelling of what a state change writes.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { insertNoteStatements } from '../notes/statements.ts';
import { stateEventStatement } from '../../db/queries/issues/resource-events.ts';
import { issues } from '../../db/schema/index.ts';
import { eventStatement } from '../events/record.ts';
import { notifyStatements, type NotifyingContext } from '../notifications/record.ts';

export interface IssueStateChange {
  issue: { id: number; projectId: number };
  userId: number;
  to: 'closed' | 'opened';
  /** The system note's body: `closed`, `reopened`, `closed via merge request group/project!1`. */
  note: string;
}

export function issueStateStatements(db: Db, ctx: NotifyingContext, c: IssueStateChange) {
  const closing = c.to === 'closed';
  const target = { type: 'Issue' as const, id: c.issue.id };
  return [
    db
      .update(issues)
      .set(
        closing
          ? { state: 'closed', closedAt: sql`now()`, closedById: c.userId, updatedAt: sql`now()` }
          : { state: 'opened', closedAt: null, closedById: null, updatedAt: sql`now()` },
      )
      .where(and(eq(issues.id, c.issue.id), ne(issues.state, c.to))),
    eventStatement(db, { action: closing ? 'closed' : 'reopened', authorId: c.userId, projectId: c.issue.projectId, target }),
    stateEventStatement(db, c.issue.id, c.userId, closing ? 'closed' : 'reopened'),
    // The stored system_note_metadata action: `closed`, or `opened` for a reopen.
    ...insertNoteStatements(
      db,
      {
        noteableType: 'Issue',
        noteableId: c.issue.id,
        projectId: c.issue.projectId,
        authorId: c.userId,
        body: c.note,
        system: true,
        systemAction: closing ? 'closed' : 'opened',
      },
      target,
      null,
    ),
    ...notifyStatements(db, ctx, { action: closing ? 'close_issue' : 'reopen_issue', target, projectId: c.issue.projectId, actorId: c.userId }),
  ] as const;
}
