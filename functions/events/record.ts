// THE way an event is written (DESIGN.md "Events"): services that perform an action GitLab records call
// recordEvent with their transaction, or put eventStatement in their batch (ctx.batch), so the event exists exactly
// when the change does. Nothing else inserts events.
import type { Db } from '../../db/client.ts';
import type { SQL } from 'drizzle-orm';
import { clearEventTargets, insertEvent, insertEventStatement, insertEvents, insertPushEventStatement } from '../../db/queries/events/record.ts';
import { EVENT_ACTIONS, type EventAction } from '../../db/schema/index.ts';

/** GitLab's PushEventPayload fields (action: created/removed/pushed; ref_type: branch/tag). */
export interface PushPayload {
  commitCount: number;
  action: 'created' | 'removed' | 'pushed';
  refType: 'branch' | 'tag';
  commitFrom: string | null;
  commitTo: string | null;
  ref: string;
  commitTitle: string | null;
  refCount?: number | null;
}

export interface RecordedEvent {
  action: EventAction;
  authorId: number;
  projectId?: number | null;
  groupId?: number | null;
  /** The target's stored class name ('Issue', 'Note', 'DiscussionNote', 'Milestone', 'Snippet', ...) and id. */
  target?: { type: string; id: number } | null;
  push?: PushPayload;
}

/** The stored row of an event (push payloads aside): its action's number, its author, where, and its target. */
const eventRow = <Id>(e: Omit<RecordedEvent, 'push' | 'target'> & { target?: { type: string; id: Id } | null }) => ({
  action: EVENT_ACTIONS[e.action],
  authorId: e.authorId,
  projectId: e.projectId ?? null,
  groupId: e.groupId ?? null,
  targetType: e.target?.type ?? null,
  targetId: e.target?.id ?? null,
});

/** A push payload as stored (push_event_payloads' numbers for action and ref type). */
const pushRow = (push: PushPayload) => ({
  commitCount: push.commitCount,
  action: { created: 0, removed: 1, pushed: 2 }[push.action],
  refType: { branch: 0, tag: 1 }[push.refType],
  commitFrom: push.commitFrom,
  commitTo: push.commitTo,
  ref: push.ref,
  commitTitle: push.commitTitle,
  refCount: push.refCount ?? null,
});

export async function recordEvent(tx: Db, e: RecordedEvent): Promise<void> {
  await insertEvent(tx, { ...eventRow(e), push: e.push ? pushRow(e.push) : undefined });
}

/** A push event (with its payload) as a statement for the batch that moves the ref: it exists exactly when the ref moved. */
export function pushEventStatement(db: Db, e: Omit<RecordedEvent, 'target'> & { push: PushPayload }) {
  return insertPushEventStatement(db, { ...eventRow(e), push: pushRow(e.push) });
}

/**
 * recordEvent as a statement for a batch (`ctx.batch`): the event is written by the batch that makes the change, so
 * it exists exactly when the change does. The target id may be SQL (the `currval` of the row the batch inserted).
 */
export function eventStatement(db: Db, e: Omit<RecordedEvent, 'push' | 'target'> & { target?: { type: string; id: number | SQL } | null }) {
  return insertEventStatement(db, eventRow(e));
}

/** Several events without push payloads in one statement (the housekeeping job's `expired` events), in `tx`. */
export async function recordEvents(tx: Db, list: readonly Omit<RecordedEvent, 'push'>[]): Promise<void> {
  await insertEvents(
    tx,
    list.map((e) => eventRow(e)),
  );
}

/** A target that is gone for good: its events keep their type and lose the id (GitLab's Milestones::DestroyService). */
export async function detachEventTarget(tx: Db, target: { type: string; id: number }): Promise<void> {
  await clearEventTargets(tx, target.type, target.id);
}
