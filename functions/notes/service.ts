// Note verbs (GitLab's lib/api/notes.rb with Notes::{Create,Update,Destroy}Service): the notes API wants a signed-in
// user; the noteable is found (and must be readable) first, then the policy decides about the note. Creating a
// comment records `commented` (target: the note) in the same batch, touches the noteable and gives to-dos to
// those it mentions. Commits are noteables too (commits.rb's comments, functions/repositories/comments/comments.ts).
// The noteables themselves are found in noteables.ts (re-exported here).
//
// Here: the lookups under the policy, the note rules, listing and delete. Creating a note is in create.ts, editing
// one in update.ts, whom a note mentions in mentions.ts.
import * as q from '../../db/queries/notes.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidRecord, isDomainError, notFound, recordNotFound } from '../lib/errors.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { assertCan, can, type NoteFacts } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { findNoteable, findNoteableById, type Noteable, type NoteableRef } from './noteables.ts';
import { NOTE_MAX, type ListNotesInput } from './schemas.ts';

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
export function checkBody(body: string, { label, via }: NoteFailure) {
  const errors = noteBodyErrors(body);
  if (errors.note) throw invalidRecord(label, errors, via);
}

/** Note#note's model errors (`{ note: [...] }`, empty when the body is fine): for a caller combining them with its own. */
export function noteBodyErrors(body: string): { note?: string[] } {
  const error = body.trim() === '' ? "can't be blank" : body.length > NOTE_MAX ? `is too long (maximum is ${NOTE_MAX} characters)` : null;
  return error ? { note: [error] } : {};
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

export async function deleteNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null }>) {
  requireUser(ctx);
  const { facts, view } = await findNote(ctx, input.noteable, input.noteId);
  assertCan(ctx.actor, 'note:admin', facts);
  await ctx.transaction((tx) => q.deleteNote(tx, view.note.id));
}
