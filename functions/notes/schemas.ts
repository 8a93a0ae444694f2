// Note inputs (GitLab's lib/api/notes.rb) and Entities::Note (13.x): the one note serializer, also used by the
// events listing for comment events.
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateTime, oneOf, schema, text } from '../lib/validate.ts';
import { toUserBasic, type BasicUserFields } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';
import { positionJson, type StoredPosition } from '../merge-requests/positions.ts';

/** Note bodies are capped by the model (Note validates `note` at 1,000,000 characters), not by the parameter. */
export const NOTE_MAX = 1_000_000;

// Bodies: any text without control characters (NUL cannot be stored); the length rule is the model's (service).
const body = () => text(Number.MAX_SAFE_INTEGER);

export const ListNotesInput = schema(() =>
  z.object({
    ...paginationParams(),
    order_by: z._default(oneOf(['created_at', 'updated_at']), 'created_at'),
    sort: z._default(oneOf(['asc', 'desc']), 'desc'),
    activity_filter: z._default(oneOf(['all_notes', 'only_comments', 'only_activity']), 'all_notes'),
  }),
);

export const CreateNoteInput = schema(() =>
  z.object({
    body: body(),
    confidential: z.optional(bool()),
    created_at: z.optional(dateTime()),
  }),
);

export const UpdateNoteInput = schema(() =>
  z.object({
    // allow_blank: false
    body: z.optional(z.pipe(body(), z.string().check(z.refine((s) => s.trim() !== '', { message: 'is empty' })))),
    confidential: z.optional(bool()),
  }),
);

/** What the entity needs of a note: the stored row (or the events listing's projection of it). */
export interface NoteShape {
  id: number;
  type: string | null;
  body: string;
  system: boolean;
  confidential: boolean;
  noteableType: string;
  /** Null for notes on commits (GitLab keeps no noteable row for a commit). */
  noteableId: number | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** A DiffNote's stored position (functions/merge-requests/positions.ts's StoredPosition). */
  position?: Record<string, unknown> | null;
  resolvedAt?: Date | string | null;
}

/**
 * ResolvableNote#resolvable?: a DiffNote or DiscussionNote on a merge request (the only noteable that
 * supports_resolvable_notes?), not a system note.
 */
export const isResolvable = (n: Pick<NoteShape, 'type' | 'noteableType' | 'system'>) =>
  n.noteableType === 'MergeRequest' && (n.type === 'DiffNote' || n.type === 'DiscussionNote') && !n.system;

/**
 * Entities::Note (13.6). `noteable_iid` for issues and merge requests (null otherwise); no `upvote`/`downvote` (v4).
 * A merge request's DiffNote adds `commit_id` (the commit it was made on: never set here, so null) and `position`;
 * resolvable notes add `resolved`, `resolved_by` and `resolved_at`.
 */
export function toNote(n: NoteShape, author: BasicUserFields | null, noteableIid: number | null, config: Config, resolvedBy: BasicUserFields | null = null) {
  const resolvable = isResolvable(n);
  const diffNote = n.type === 'DiffNote';
  return {
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: author ? toUserBasic(author, config) : null,
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
    system: n.system,
    noteable_id: n.noteableId,
    noteable_type: n.noteableType,
    ...(diffNote && n.noteableType === 'MergeRequest' ? { commit_id: null } : {}),
    ...(diffNote ? { position: n.position ? positionJson(n.position as unknown as StoredPosition) : null } : {}),
    resolvable,
    ...(resolvable
      ? { resolved: n.resolvedAt != null, resolved_by: resolvedBy ? toUserBasic(resolvedBy, config) : null, resolved_at: iso(n.resolvedAt ?? null) }
      : {}),
    confidential: n.confidential,
    noteable_iid: n.noteableType === 'Issue' || n.noteableType === 'MergeRequest' ? noteableIid : null,
    commands_changes: {},
  };
}

/** A note row read with its author and resolver (db/queries/notes.ts NoteView). */
export type NoteViewShape = { note: NoteShape; author: BasicUserFields | null; resolvedBy?: BasicUserFields | null };

export const toNoteView = (v: NoteViewShape, noteableIid: number | null, config: Config) => toNote(v.note, v.author, noteableIid, config, v.resolvedBy ?? null);

/**
 * Entities::Discussion: `id`, `individual_note` (Note#discussion_class is IndividualNoteDiscussion for a plain
 * note, system notes included; a reply first turns it into a DiscussionNote), `notes`.
 */
export function toDiscussion(id: string, views: readonly NoteViewShape[], noteableIid: number | null, config: Config) {
  const first = views[0]?.note;
  return {
    id,
    individual_note: first !== undefined && first.type === null,
    notes: views.map((v) => toNoteView(v, noteableIid, config)),
  };
}
