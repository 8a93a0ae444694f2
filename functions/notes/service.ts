// Note verbs (GitLab's lib/api/notes.rb with Notes::{Create,Update,Destroy}Service): the notes API wants a signed-in
// user; the noteable is found (and must be readable) first, then the policy decides about the note. Creating a
// comment records `commented` (target: the note) in the same batch, touches the noteable and gives to-dos to
// those it mentions. Commits are noteables too (commits.rb's comments, functions/repositories/comments/comments.ts).
// The noteables themselves are found in noteables.ts (re-exported here).
import type { UserRow } from '../../db/schema/index.ts';
import { sql } from 'drizzle-orm';
import { mentionTodosStatement, newIssueLinkStatements, TODO_DIRECTLY_ADDRESSED, TODO_MENTIONED } from '../../db/queries/issues.ts';
import { insertAlertTodosStatement } from '../../db/queries/alerts.ts';
import * as q from '../../db/queries/notes.ts';
import { eventStatement } from '../events/record.ts';
import { createMentionTodos, freshMentions, mentionReaders, mentionTodoUsers } from '../issues/mention-todos.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidRecord, isDomainError, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { assertCan, can, type NoteableFacts, type NoteFacts } from '../lib/policy.ts';
import { epicMentionTodoStatements, epicMentionUsers } from '../todos/epic-mentions.ts';
import type { Output } from '../lib/validate.ts';
import { findNoteable, findNoteableById, type Noteable, type NoteableRef } from './noteables.ts';
import { NOTE_MAX, type CreateNoteInput, type ListNotesInput, type UpdateNoteInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export {
  alertNoteable,
  commitNoteable,
  epicNoteable,
  findNoteable,
  findNoteableById,
  issueNoteable,
  mergeRequestNoteable,
  snippetNoteable,
  type CommitNoteable,
  type EpicNoteable,
  type Noteable,
  type NoteableRef,
} from './noteables.ts';

/** A readable note by its database id (GraphQL's NoteID, AwardableID), with its noteable: 404 `Note Not Found` otherwise. */
export async function findNoteById(ctx: RequestContext, id: number) {
  const view = await q.findNoteById(ctx.db, id);
  const key = view && q.keyOfNote(view.note);
  if (!view || !key || key.type === 'Commit') throw notFound('Note');
  const noteable = await findNoteableById(ctx, key);
  const facts = noteFacts(noteable, view.note);
  if (!can(ctx.actor, 'note:read', facts)) throw notFound('Note');
  return { noteable, view, facts };
}

/** A discussion the actor may read, by its 40-hex id: its first note and noteable (404 `Discussion Not Found` otherwise). */
export async function findDiscussion(ctx: RequestContext, discussionId: string) {
  const first = await q.findDiscussionFirstNote(ctx.db, discussionId);
  if (!first) throw notFound('Discussion');
  const found = await findNoteById(ctx, first.note.id).catch((e) => {
    if (isDomainError(e, 'not_found')) throw notFound('Discussion');
    throw e;
  });
  return { noteable: found.noteable, first: found.view };
}

export const noteFacts = (noteable: Noteable, n: q.NoteView['note']): NoteFacts => ({
  kind: 'note',
  noteable: noteable.facts,
  authorId: n.authorId,
  system: n.system,
  confidential: n.confidential,
});

/** The first note of a new discussion: a DiscussionNote, or a DiffNote placed on a diff version's line. */
export type NoteStart = { type: 'DiscussionNote' } | { type: 'DiffNote'; position: Record<string, unknown>; lineCode: string | null };

/** How an endpoint words a note that fails the model's rules: the label and GitLab's helper that interpolates them. */
export type NoteFailure = { label: string; via: 'bad_request' | 'render_api_error' };

/**
 * Note#note's model rules. GitLab's notes API words a failure as a bad request after `label`
 * (`400 Bad request - Note {:note=>["can't be blank"]}`), commits.rb with render_api_error! (`Failed to save note
 * {...}`); GraphQL reads the same error as `Note can't be blank`.
 */
function checkBody(body: string, { label, via }: NoteFailure) {
  const errors = noteBodyErrors(body);
  if (errors.note) throw invalidRecord(label, errors, via);
}

/** Note#note's model errors (`{ note: [...] }`, empty when the body is fine): for a caller combining them with its own. */
export function noteBodyErrors(body: string): { note?: string[] } {
  const error = body.trim() === '' ? "can't be blank" : body.length > NOTE_MAX ? `is too long (maximum is ${NOTE_MAX} characters)` : null;
  return error ? { note: [error] } : {};
}

/** The mentioned users who may read the note (and so the noteable), at their level on the project. */
const noteReader = (noteable: Noteable, note: Pick<NoteFacts, 'confidential'>) => (user: UserRow, accessLevel: number) =>
  can(readerActor(user), 'note:read', {
    kind: 'note',
    noteable: atLevel(noteable.facts, accessLevel),
    authorId: null,
    system: false,
    confidential: note.confidential,
  });

/** The noteable's facts for someone holding `accessLevel` where it lives (its project, or an epic's group). */
const atLevel = (f: NoteableFacts, accessLevel: number): NoteableFacts =>
  f.kind === 'epic' ? { ...f, group: { ...f.group, accessLevel, hasDescendantAccess: false } } : { ...f, project: { ...f.project, accessLevel } };

/** Mention to-dos' actions: directly addressed (`@user` leading the text) or mentioned. */
const mentionActions = (mentions: ReadonlyArray<{ userId: number; direct: boolean }>) =>
  mentions.map((m) => ({ userId: m.userId, action: m.direct ? TODO_DIRECTLY_ADDRESSED : TODO_MENTIONED }));

/** Who a note's (or an edit's) body newly mentions and may read it: the to-dos' recipients. */
async function mentionsOf(ctx: RequestContext, noteable: Noteable, texts: string[], before: string[] | undefined, mayRead: ReturnType<typeof noteReader>) {
  const key = noteable.key;
  if (key.type === 'Epic') return epicMentionUsers(ctx.db, { traversalIds: noteable.epic!.group.namespace.traversalIds, texts, before, mayRead });
  // Gap: GitLab gives to-dos for mentions in commit comments too; to-dos have no commit target here yet. Notes on
  // alerts give them (Note#can_create_todo?: not a system note, not on a snippet) to who may read the alert.
  if (key.type !== 'Issue' && key.type !== 'MergeRequest' && key.type !== 'AlertManagement::Alert') return [];
  const read = noteable.mentioned;
  if (!before && read && read.text === texts[0]) return mentionReaders(freshMentions(texts), read.candidates, mayRead);
  return mentionTodoUsers(ctx.db, { project: noteable.project!, texts, before, mayRead });
}

export async function listNotes({ ctx, input }: Verb<{ noteable: NoteableRef; params: Output<typeof ListNotesInput> }>) {
  requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable);
  const p = input.params;
  const order: q.NoteOrder = { by: p.order_by, sort: p.sort };
  // On a readable noteable, note:read depends on a note only through its confidentiality: one decision for the whole
  // list, applied in SQL, so that X-Total counts only what is shown and pages are full (GitLab drops unreadable notes
  // after paginating, which lets the total reveal hidden notes).
  const hidden: NoteFacts = { kind: 'note', noteable: noteable.facts, authorId: null, system: false, confidential: true };
  const filter: q.NoteListFilter = { kinds: p.activity_filter, withConfidential: can(ctx.actor, 'note:read', hidden) };
  let total: number | undefined;
  return {
    noteable,
    fetch: async (limit: number, offset: number) => {
      const rows = await q.listNotes(ctx.db, noteable.key, filter, order, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = rows[0].total ?? 0;
      return rows;
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : q.countNotes(ctx.db, noteable.key, filter, limit)),
  };
}

/** The noteable and its note: 404 `Not found` when the note is not on it, 404 `Note Not Found` when unreadable. */
export async function findNote(ctx: RequestContext, ref: NoteableRef, noteId: number | null) {
  return findNoteOn(ctx, await findNoteable(ctx, ref), noteId);
}

/** A note of a noteable already found readable: 404 `Not found` when the note is not on it (`noteable.notes.find`). */
export async function findNoteOn(ctx: RequestContext, noteable: Noteable, noteId: number | null) {
  const view = noteId === null ? undefined : await q.findNote(ctx.db, noteable.key, noteId);
  if (!view) throw recordNotFound();
  return { noteable, view, facts: noteFacts(noteable, view.note) };
}

export async function getNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null }>) {
  requireUser(ctx);
  const found = await findNote(ctx, input.noteable, input.noteId);
  if (!can(ctx.actor, 'note:read', found.facts)) throw notFound('Note');
  return found;
}

const sameNoteable = (a: q.NoteableKey | null, b: q.NoteableKey) => a !== null && q.noteableKeyString(a) === q.noteableKeyString(b);

/**
 * Notes::CreateService, the one write of a comment for REST and GraphQL: on a noteable already found readable
 * (findNoteable, findNoteableById, commitNoteable), optionally a reply into one of its discussions (found readable
 * with findDiscussion). The note, the noteable touched, `commented`, mention to-dos. `failure`: how the endpoint
 * words a note the model refuses (the notes API's by default). `diffLine`: a commit comment placed on a line of the
 * commit's diff, stored as GitLab's LegacyDiffNote with its line code. `start`: the first note of a new discussion
 * (POST .../discussions): a DiscussionNote, or a DiffNote with its stored position and line code.
 */
export async function createNote({
  ctx,
  input,
}: Verb<{
  noteable: Noteable;
  params: Output<typeof CreateNoteInput>;
  replyTo?: q.NoteView | null;
  failure?: NoteFailure;
  diffLine?: { lineCode: string } | null;
  start?: NoteStart | null;
}>) {
  const { noteable, params: p, replyTo } = input;
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'noteable:create_note', noteable.facts);
  checkBody(p.body, input.failure ?? { label: 'Note', via: 'bad_request' });
  if (replyTo && !sameNoteable(q.keyOfNote(replyTo.note), noteable.key)) {
    throw validationFailed({ base: ['Discussion to reply to cannot be found'] });
  }
  const discussionId = replyTo ? replyTo.note.discussionId : null;
  const confidential = p.confidential === true && can(ctx.actor, 'noteable:create_confidential_note', noteable.facts);
  const createdAt = p.created_at && can(ctx.actor, 'noteable:set_note_created_at', noteable.facts) ? p.created_at : undefined;
  const projectId = noteable.project?.project.id ?? null;
  const groupId = noteable.epic ? noteable.epic.view.epic.groupId : null;
  // No lock and no decision between the statements (db/client.ts's rule): who gets a mention to-do is read first
  // (notes on snippets make none: Note#can_create_todo?), then ONE batch inserts the note, touches the noteable,
  // records `commented`, inserts the to-dos and reads the note back.
  const mayRead = noteReader(noteable, { confidential });
  const key = noteable.key;
  const mentions = await mentionsOf(ctx, noteable, [p.body], undefined, mayRead);
  const diffLine = input.diffLine ?? null;
  const start = replyTo ? null : (input.start ?? null);
  const type = diffLine ? ('LegacyDiffNote' as const) : (start?.type ?? undefined);
  const values = {
    noteableType: key.type,
    ...(key.type === 'Commit' ? { noteableId: null, commitId: key.commitId } : { noteableId: key.id }),
    projectId,
    authorId: user.id,
    body: p.body,
    confidential,
    ...(diffLine ? { type, lineCode: diffLine.lineCode } : {}),
    ...(start?.type === 'DiscussionNote' ? { type: start.type } : {}),
    ...(start?.type === 'DiffNote' ? { type: start.type, position: start.position, lineCode: start.lineCode } : {}),
    ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
  };
  const noteId = q.lastNoteIdSql();
  const results = await ctx.batch((db) => [
    ...q.insertNoteStatements(db, values, key, discussionId),
    // The event's target_type is the note's class (EventCreateService#create_record_event).
    // An epic's note is its group's event (EventCreateService with the note's resource_parent: project_id null).
    eventStatement(db, { action: 'commented', authorId: user.id, projectId, groupId, target: { type: replyTo ? 'DiscussionNote' : (type ?? 'Note'), id: noteId } }),
    ...(key.type === 'Issue' ? newIssueLinkStatements(db, { id: sql<number>`${key.id}`, projectId: projectId! }, user.id, null, mentions, noteId) : []),
    ...(key.type === 'MergeRequest' && mentions.length ? [mentionTodosStatement(db, { type: 'MergeRequest', id: key.id, projectId: projectId! }, user.id, mentions, noteId)] : []),
    ...(key.type === 'Epic' ? epicMentionTodoStatements(db, { epicId: key.id, groupId: groupId! }, user.id, mentions, noteId) : []),
    ...(key.type === 'AlertManagement::Alert' && mentions.length ? [insertAlertTodosStatement(db, { id: key.id, projectId: projectId! }, user.id, mentionActions(mentions), noteId)] : []),
    q.lastInsertedNoteViewQuery(db),
  ]);
  const [view] = results[results.length - 1] as q.NoteView[];
  return { noteable, view: view! };
}

export async function updateNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null; params: Output<typeof UpdateNoteInput> }>) {
  const user = requireUser(ctx);
  const { noteable, view, facts } = await findNote(ctx, input.noteable, input.noteId);
  assertCan(ctx.actor, 'note:admin', facts);
  const p = input.params;
  if (p.body !== undefined) checkBody(p.body, { label: 'Failed to save note', via: 'bad_request' });
  const confidential = p.confidential !== undefined && can(ctx.actor, 'noteable:create_confidential_note', noteable.facts) ? p.confidential : undefined;
  if (p.body === undefined && confidential === undefined) return { noteable, view };
  const note = view.note;
  await ctx.transaction(async (tx) => {
    const now = new Date();
    await q.updateNote(tx, note.id, { body: p.body, confidential, updatedAt: now, updatedById: user.id });
    const key = noteable.key;
    if (p.body !== undefined && key.type === 'Epic') {
      const mayRead = noteReader(noteable, { confidential: confidential ?? note.confidential });
      const mentions = await mentionsOf(ctx, noteable, [p.body], [note.body], mayRead);
      for (const s of epicMentionTodoStatements(tx, { epicId: key.id, groupId: noteable.epic!.view.epic.groupId }, user.id, mentions, note.id)) await s;
    }
    if (p.body !== undefined && key.type === 'AlertManagement::Alert') {
      const mentions = await mentionsOf(ctx, noteable, [p.body], [note.body], noteReader(noteable, { confidential: confidential ?? note.confidential }));
      if (mentions.length) await insertAlertTodosStatement(tx, { id: key.id, projectId: noteable.project!.project.id }, user.id, mentionActions(mentions), note.id);
    }
    if (p.body !== undefined && (key.type === 'Issue' || key.type === 'MergeRequest')) {
      await createMentionTodos(tx, {
        project: noteable.project!,
        issue: { type: key.type, id: key.id, projectId: noteable.project!.project.id },
        authorId: user.id,
        texts: [p.body],
        before: [note.body],
        noteId: note.id,
        mayRead: noteReader(noteable, { confidential: confidential ?? note.confidential }),
      });
    }
  });
  return { noteable, view: (await q.findNoteById(ctx.db, note.id))! };
}

export async function deleteNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null }>) {
  requireUser(ctx);
  const { facts, view } = await findNote(ctx, input.noteable, input.noteId);
  assertCan(ctx.actor, 'note:admin', facts);
  await ctx.transaction((tx) => q.deleteNote(tx, view.note.id));
}
