// Batched note reads (GraphQL's Noteable.notes/discussions under a page of issues or snippets): one query for every
// noteable asked, the notes the actor may not read dropped by the policy, as the REST list drops them.
import { findNotesOfNoteables, keyOfNote, noteableKeyString, searchProjectNotes, type NoteableKey, type NoteView } from '../../db/queries/notes.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { noteFacts, type Noteable } from './service.ts';

/** One string per noteable (`Issue:1`): what batches and caches key on. */
export const noteableKey = (k: NoteableKey) => noteableKeyString(k);

/** The readable notes of each noteable, oldest first, with their authors. */
export async function readableNotesOf(ctx: RequestContext, noteables: readonly Noteable[]): Promise<NoteView[][]> {
  const byKey = new Map<string, NoteView[]>();
  for (const r of await findNotesOfNoteables(
    ctx.db,
    noteables.map((n) => n.key),
  )) {
    const key = keyOfNote(r.note);
    if (!key) continue;
    const k = noteableKey(key);
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  return noteables.map((n) => (byKey.get(noteableKey(n.key)) ?? []).filter((r) => can(ctx.actor, 'note:read', noteFacts(n, r.note))));
}

/**
 * The search API's notes of one project (its read rules in the statement): a page, newest updated first, each with
 * its noteable's iid and the total. `readsCode`: whether the actor may read the project's code (notes on commits).
 */
export const searchNotes = (ctx: RequestContext, projectId: number, query: string, readsCode: boolean, limit: number, offset: number) =>
  searchProjectNotes(ctx.db, ctx.actor, projectId, query, readsCode, limit, offset);
