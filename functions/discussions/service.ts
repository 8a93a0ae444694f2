// Discussion verbs (GitLab 13.6 lib/api/discussions.rb with API::Helpers::NotesHelpers, Discussions::{Resolve,
// Unresolve}Service, Notes::ResolveService): the threads of an issue, a merge request or a project snippet. The
// noteable is found (and must be readable) by the notes domain; creating, editing and deleting a note are the notes
// domain's verbs (createNote records `commented`, touches the noteable, gives mention to-dos). A discussion started
// on a merge request with a `position` is a DiffNote placed on one of the MR's diff versions; resolving is for merge
// requests only (the one noteable that supports resolvable notes).
import type { Db } from '../../db/client.ts';
import type { NoteListFilter, NoteView } from '../../db/queries/notes.ts';
import { countDiscussions, findDiscussionNotes, findNoteById, listDiscussionIds, resolvableState } from '../notes/lookups.ts';
import { setDiscussionResolved, setNoteResolved } from '../notes/statements.ts';
import { findDiffVersionBySha } from '../merge-requests/lookups.ts';
import { insertMergeRequestSystemNote } from '../merge-requests/statements.ts';
import { changedPaths, resolveRevision } from '../repositories/lookups.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { badRequest, forbidden, invalidRecord, notFound, recordNotFound } from '../lib/errors.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { assertCan, can, type NoteFacts } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { locateTextPosition, positionDiffFile, positionErrors, toStoredPosition, type StoredPosition } from '../merge-requests/positions.ts';
import type { PositionParams } from '../merge-requests/position-schemas.ts';
import { isResolvable } from '../notes/schemas.ts';
import { createNote } from '../notes/create.ts';
import { findNote, findNoteable, noteBodyErrors, noteFacts, type Noteable, type NoteableRef, type NoteStart } from '../notes/service.ts';
import type { CreatePositionedDiscussionInput, ReplyInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** One discussion: its id and its readable notes, oldest first. */
export interface DiscussionView {
  id: string;
  notes: NoteView[];
}

/** The listing's filter: every kind of note, confidential ones only for who may read them (one decision per noteable). */
function listFilter(ctx: RequestContext, noteable: Noteable): NoteListFilter {
  const hidden: NoteFacts = { kind: 'note', noteable: noteable.facts, authorId: null, system: false, confidential: true };
  return { kinds: 'all_notes', withConfidential: can(ctx.actor, 'note:read', hidden) };
}

const readable = (ctx: RequestContext, noteable: Noteable, rows: readonly NoteView[]) =>
  rows.filter((r) => can(ctx.actor, 'note:read', noteFacts(noteable, r.note)));

/** Groups notes (oldest first) by discussion, in the order of `ids`. */
function group(ids: readonly string[], rows: readonly NoteView[]): DiscussionView[] {
  const byId = new Map<string, NoteView[]>(ids.map((id) => [id, []]));
  for (const r of rows) byId.get(r.note.discussionId)?.push(r);
  return [...byId].filter(([, notes]) => notes.length > 0).map(([id, notes]) => ({ id, notes }));
}

/**
 * GET .../discussions: a page of discussion ids in the order of their first notes (discussion_ids_relation), then
 * their notes. Confidential notes the actor may not read are left out in SQL, so that pages and X-Total count only
 * what is shown.
 */
export async function listDiscussions({ ctx, input }: Verb<{ noteable: NoteableRef }>) {
  requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable);
  const filter = listFilter(ctx, noteable);
  let total: number | undefined;
  return {
    noteable,
    fetch: async (limit: number, offset: number) => {
      const ids = await listDiscussionIds(ctx.db, noteable.key, filter, limit, offset, COUNT_LIMIT + 1);
      if (ids[0]) total = ids[0].total;
      const notes = await findDiscussionNotes(
        ctx.db,
        noteable.key,
        ids.map((i) => i.id),
      );
      return group(
        ids.map((i) => i.id),
        readable(ctx, noteable, notes),
      );
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : countDiscussions(ctx.db, noteable.key, filter, limit)),
  };
}

/** readable_discussion_notes: the discussion's notes on this noteable the actor may read; 404 `Discussion Not Found` when none. */
async function readDiscussion(ctx: RequestContext, noteable: Noteable, discussionId: string): Promise<DiscussionView> {
  const notes = readable(ctx, noteable, await findDiscussionNotes(ctx.db, noteable.key, [discussionId]));
  if (!notes.length) throw notFound('Discussion');
  return { id: discussionId, notes };
}

/** GET .../discussions/:discussion_id */
export async function getDiscussion({ ctx, input }: Verb<{ noteable: NoteableRef; discussionId: string }>) {
  requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable);
  return { noteable, discussion: await readDiscussion(ctx, noteable, input.discussionId) };
}

/** GET .../discussions/:discussion_id/notes: the discussion's readable notes (404 `Notes Not Found` when none). */
export async function getDiscussionNotes({ ctx, input }: Verb<{ noteable: NoteableRef; discussionId: string }>) {
  requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable);
  const notes = readable(ctx, noteable, await findDiscussionNotes(ctx.db, noteable.key, [input.discussionId]));
  if (!notes.length) throw notFound('Notes');
  return { noteable, discussion: { id: input.discussionId, notes } as DiscussionView };
}

/**
 * Where a DiffNote on a merge request sits: the position as GitLab stores it and its line code. A text position must
 * name one of the MR's diff versions by its SHAs and a line that version's diff shows (or unfolds); otherwise the
 * note fails DiffNote's validations, which the API answers `400 Bad request - Note {:line_code=>["can't be blank",
 * "must be a valid line code"]}`. Image positions are not looked up in the diff (GitLab 13.6 saves them as given, once
 * complete).
 */
async function placeDiffNote(ctx: RequestContext, noteable: Noteable, params: PositionParams, body: string): Promise<NoteStart> {
  const position = toStoredPosition(params);
  let lineCode: string | null = null;
  if (position.position_type === 'text' && position.start_sha && position.head_sha) {
    const pair = await diffOf(ctx, noteable, { base: position.base_sha, start: position.start_sha, head: position.head_sha });
    if (pair) {
      const changed = await changedPaths(ctx.db, noteable.project!.project.id, [pair]);
      lineCode = (await locateTextPosition(positionDiffFile(changed, position), position))?.lineCode ?? null;
    }
  }
  // Note's own rule on the body is validated first, DiffNote's after it: one message names them all.
  const errors = { ...noteBodyErrors(body), ...positionErrors(position, lineCode) };
  if (Object.keys(errors).length) throw invalidRecord('Note', errors, 'bad_request');
  return { type: 'DiffNote', position: position as StoredPosition as unknown as Record<string, unknown>, lineCode };
}

/**
 * The diff a text position is on: for a merge request, one of its versions named by the SHAs (from its merge base,
 * as the version's diff); for a commit, the position's own refs (DiffRefs#compare_in: start..head, or from the base
 * when it differs from start), when the repository has both commits. Null when there is no such diff.
 */
async function diffOf(ctx: RequestContext, noteable: Noteable, shas: { base: string | null; start: string; head: string }) {
  if (noteable.key.type === 'MergeRequest') {
    const version = await findDiffVersionBySha(ctx.db, noteable.key.id, shas);
    return version ? { oldCommit: version.baseCommitSha ?? version.startCommitSha, newCommit: version.headCommitSha } : null;
  }
  if (noteable.key.type !== 'Commit') return null;
  const projectId = noteable.project!.project.id;
  const from = shas.base ?? shas.start;
  const [oldCommit, newCommit] = await Promise.all([resolveRevision(ctx.db, projectId, from), resolveRevision(ctx.db, projectId, shas.head)]);
  return oldCommit && newCommit && /^[0-9a-f]{40}$/.test(from) && /^[0-9a-f]{40}$/.test(shas.head)
    ? { oldCommit: oldCommit.oid, newCommit: newCommit.oid }
    : null;
}

/**
 * POST .../discussions: a new discussion's first note, a DiscussionNote, or on a merge request given `position` a
 * DiffNote. Who may comment, the body's rules, the event and the to-dos are createNote's.
 */
export async function createDiscussion({ ctx, input }: Verb<{ noteable: NoteableRef; params: Output<typeof CreatePositionedDiscussionInput> }>) {
  requireUser(ctx);
  const p = input.params;
  const noteable = await findNoteable(ctx, input.noteable, { mentionsIn: p.body });
  // `position` is declared for merge requests and commits only (routes parse it there), `line_range` for merge requests only.
  const positioned = p.position ? (noteable.key.type === 'Commit' ? { ...p.position, line_range: undefined } : p.position) : null;
  // authorize!(:create_note) comes before the model's validations.
  assertCan(ctx.actor, 'noteable:create_note', noteable.facts);
  const start: NoteStart = positioned ? await placeDiffNote(ctx, noteable, positioned, p.body) : { type: 'DiscussionNote' };
  const { view } = await createNote({ ctx, input: { noteable, params: { body: p.body, created_at: p.created_at }, start } });
  return { noteable, discussion: { id: view.note.discussionId, notes: [view] } as DiscussionView };
}

/**
 * POST .../discussions/:discussion_id/notes: a reply. An individual note is turned into a discussion first where the
 * noteable supports replying to individual notes (issues, merge requests and, in EE, epics: Noteable's replyable
 * types); elsewhere
 * `400 Bad request - Discussion can not be replied to.`.
 */
export async function replyToDiscussion({ ctx, input }: Verb<{ noteable: NoteableRef; discussionId: string; params: Output<typeof ReplyInput> }>) {
  requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable, { mentionsIn: input.params.body });
  const discussion = await readDiscussion(ctx, noteable, input.discussionId);
  const first = discussion.notes[0]!;
  const replyable = noteable.key.type === 'Issue' || noteable.key.type === 'MergeRequest' || noteable.key.type === 'Epic';
  if (first.note.type === null && !replyable) throw badRequest('Discussion can not be replied to.');
  const { view } = await createNote({ ctx, input: { noteable, params: { body: input.params.body, created_at: input.params.created_at }, replyTo: first } });
  return { noteable, view };
}

/**
 * MergeRequests::ResolvedDiscussionNotificationService after a resolve: once every resolvable note of the merge
 * request is resolved, the system note `resolved all threads` by the resolver.
 */
async function noteAllResolved(tx: Db, noteable: Noteable, userId: number) {
  if (noteable.key.type !== 'MergeRequest') return;
  const state = await resolvableState(tx, noteable.key.id);
  if (state.resolvable === 0 || state.unresolved > 0) return;
  await insertMergeRequestSystemNote(tx, { id: noteable.key.id, targetProjectId: noteable.project!.project.id }, userId, 'resolved all threads', 'discussion');
}

/**
 * PUT .../discussions/:discussion_id/notes/:note_id with `resolved` (resolve_note): the note of the noteable (404
 * `Not found`), `resolve_note` on it (403), resolvable (`400 Bad request - Note is not resolvable`); then resolved by
 * the caller or unresolved (Note#resolve! / #unresolve!).
 */
export async function resolveNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null; resolved: boolean }>) {
  const user = requireUser(ctx);
  const { noteable, view, facts } = await findNote(ctx, input.noteable, input.noteId);
  if (!can(ctx.actor, 'note:resolve', facts)) throw forbidden();
  if (!isResolvable(view.note)) throw badRequest('Note is not resolvable');
  await ctx.transaction(async (tx) => {
    await setNoteResolved(tx, view.note.id, input.resolved ? user.id : null, new Date());
    if (input.resolved) await noteAllResolved(tx, noteable, user.id);
  });
  const updated = await findNoteById(ctx.db, view.note.id);
  if (!updated) throw recordNotFound();
  return { noteable, view: updated };
}

/**
 * PUT .../discussions/:discussion_id with `resolved` (merge requests): the discussion must be resolvable and the
 * caller may resolve it (ResolvableDiscussion#can_resolve?: the MR's author or developers and above), else 403; its
 * resolvable notes are then resolved or unresolved together. (GitLab answers 500 for a discussion id the noteable
 * does not have; 404 `Discussion Not Found` here.)
 */
export async function resolveDiscussion({ ctx, input }: Verb<{ noteable: NoteableRef; discussionId: string; resolved: boolean }>) {
  const user = requireUser(ctx);
  const noteable = await findNoteable(ctx, input.noteable);
  const found = await findDiscussionNotes(ctx.db, noteable.key, [input.discussionId]);
  if (!found.length) throw notFound('Discussion');
  if (!found.some((r) => isResolvable(r.note)) || !can(ctx.actor, 'noteable:resolve_discussion', noteable.facts)) throw forbidden();
  await ctx.transaction(async (tx) => {
    await setDiscussionResolved(tx, noteable.key, input.discussionId, input.resolved ? user.id : null, new Date());
    if (input.resolved) await noteAllResolved(tx, noteable, user.id);
  });
  return { noteable, discussion: await readDiscussion(ctx, noteable, input.discussionId) };
}
