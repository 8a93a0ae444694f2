// Events and the rows they point at, written straight to the database: for date filters (a chosen created_at),
// retention (events years old), and targets whose own API may not exist yet (confidential issues, notes, pushes).
// Production code writes events only through recordEvent; this is test data.
import { sql } from 'drizzle-orm';
import { rows } from '../../db/queries/lib/raw.ts';
import { EVENT_ACTIONS, type EventAction } from '../../db/schema/index.ts';
import { testDb } from '../helpers/app.ts';
import { unique } from './users.ts';

export interface EventOptions {
  action: EventAction;
  authorId: number;
  projectId?: number | null;
  groupId?: number | null;
  targetType?: string | null;
  targetId?: number | null;
  /** ISO timestamp; now by default. */
  createdAt?: string;
  push?: {
    commitCount: number;
    action: 0 | 1 | 2;
    refType: 0 | 1;
    commitFrom: string | null;
    commitTo: string | null;
    ref: string;
    commitTitle: string | null;
  };
}

/** Inserts one event (and its push payload) and returns its id. */
export async function insertTestEvent(e: EventOptions): Promise<number> {
  const createdAt = e.createdAt ?? new Date().toISOString();
  const [row] = await rows<{ id: unknown }>(
    testDb().db,
    sql`INSERT INTO events (project_id, group_id, author_id, action, target_type, target_id, created_at, updated_at)
        VALUES (${e.projectId ?? null}, ${e.groupId ?? null}, ${e.authorId}, ${EVENT_ACTIONS[e.action]}, ${e.targetType ?? null}, ${e.targetId ?? null}, ${createdAt}::timestamptz, ${createdAt}::timestamptz)
        RETURNING id`,
  );
  const id = Number(row!.id);
  if (e.push) {
    const p = e.push;
    await testDb().db.execute(
      sql`INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title)
          VALUES (${id}, ${p.commitCount}, ${p.action}, ${p.refType}, ${p.commitFrom}, ${p.commitTo}, ${p.ref}, ${p.commitTitle})`,
    );
  }
  return id;
}

let iidCounter = 1000;

/** An issue row (no iid allocation: a high unique iid), optionally confidential with assignees. */
export async function insertTestIssue(o: { projectId: number; authorId: number; confidential?: boolean; assigneeIds?: number[]; title?: string }) {
  const iid = iidCounter++;
  const title = o.title ?? unique('issue');
  const [row] = await rows<{ id: unknown }>(
    testDb().db,
    sql`INSERT INTO issues (project_id, iid, author_id, title, confidential) VALUES (${o.projectId}, ${iid}, ${o.authorId}, ${title}, ${o.confidential ?? false}) RETURNING id`,
  );
  const id = Number(row!.id);
  for (const userId of o.assigneeIds ?? []) await testDb().db.execute(sql`INSERT INTO issue_assignees (issue_id, user_id) VALUES (${id}, ${userId})`);
  return { id, iid, title };
}

/** A note on an issue. */
export async function insertTestNote(o: {
  projectId: number;
  issueId: number;
  authorId: number;
  body?: string;
  type?: 'DiscussionNote' | 'DiffNote' | null;
  confidential?: boolean;
}) {
  const body = o.body ?? unique('note body ');
  const [row] = await rows<{ id: unknown }>(
    testDb().db,
    sql`INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, type, discussion_id, confidential)
        VALUES ('Issue', ${o.issueId}, ${o.projectId}, ${o.authorId}, ${body}, ${o.type ?? null}, ${unique('d').padEnd(40, '0').slice(0, 40)}, ${o.confidential ?? false})
        RETURNING id`,
  );
  return { id: Number(row!.id), body };
}

/** A project milestone. */
export async function insertTestMilestone(o: { projectId: number; title?: string }) {
  const iid = iidCounter++;
  const title = o.title ?? unique('milestone');
  const [row] = await rows<{ id: unknown }>(
    testDb().db,
    sql`INSERT INTO milestones (project_id, iid, title) VALUES (${o.projectId}, ${iid}, ${title}) RETURNING id`,
  );
  return { id: Number(row!.id), iid, title };
}
