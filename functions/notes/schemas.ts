// Note inputs (GitLab's lib/api/notes.rb) and Entities::Note (13.x): the one note serializer, also used by the
// events listing for comment events.
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateTime, oneOf, schema, text } from '../lib/validate.ts';
import { toUserBasic, type BasicUserFields } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';

/** Note bodies are capped by the model (Note validates `note` at 1,000,000 characters), not by the parameter. */
export const NOTE_MAX = 1_000_000;

// Bodies: any text without control characters (NUL cannot be stored); the length rule is the model's (service).
const body = () => text(Number.MAX_SAFE_INTEGER);

export const ListNotesInput = schema(() => z.object({
  ...paginationParams(),
  order_by: z._default(oneOf(['created_at', 'updated_at']), 'created_at'),
  sort: z._default(oneOf(['asc', 'desc']), 'desc'),
  activity_filter: z._default(oneOf(['all_notes', 'only_comments', 'only_activity']), 'all_notes'),
}));

export const CreateNoteInput = schema(() => z.object({
  body: body(),
  confidential: z.optional(bool()),
  created_at: z.optional(dateTime()),
}));

export const UpdateNoteInput = schema(() => z.object({
  // allow_blank: false
  body: z.optional(z.pipe(body(), z.string().check(z.refine((s) => s.trim() !== '', { message: 'is empty' })))),
  confidential: z.optional(bool()),
}));

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
}


/** Entities::Note. `noteable_iid` for issues (null otherwise); no `upvote`/`downvote` (v4). */
export function toNote(n: NoteShape, author: BasicUserFields | null, noteableIid: number | null, config: Config) {
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
    resolvable: false,
    confidential: n.confidential,
    noteable_iid: n.noteableType === 'Issue' ? noteableIid : null,
    commands_changes: {},
  };
}
