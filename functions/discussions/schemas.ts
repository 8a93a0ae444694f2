// Discussion inputs (GitLab 13.6 lib/api/discussions.rb). The entities are the notes domain's (toDiscussion, toNote).
import * as z from 'zod/mini';
import { paginationParams } from '../lib/pagination.ts';
import { bool, dateTime, exactlyOneOf, schema, text } from '../lib/validate.ts';
import { PositionInput } from '../merge-requests/position-schemas.ts';

// Bodies: any text without control characters (NUL cannot be stored); the length rule is the model's (service).
const body = () => text(Number.MAX_SAFE_INTEGER);

export const ListDiscussionsInput = schema(() => z.object({ ...paginationParams() }));

/** `requires :body`, `optional :created_at` (issues and snippets: `position` is not declared, so Grape drops it). */
export const CreateDiscussionInput = schema(() => z.object({ body: body(), created_at: z.optional(dateTime()) }));

/** Merge requests and commits also take `position`, a Hash (Rack-nested from form input). */
export const CreatePositionedDiscussionInput = schema(() =>
  z.object({
    body: body(),
    created_at: z.optional(dateTime()),
    position: z.optional(PositionInput()),
  }),
);

/** POST .../discussions/:discussion_id/notes */
export const ReplyInput = schema(() => z.object({ body: body(), created_at: z.optional(dateTime()) }));

/** PUT .../discussions/:discussion_id/notes/:note_id: `exactly_one_of :body, :resolved`. */
export const UpdateDiscussionNoteInput = schema(() =>
  z.object({ body: z.optional(body()), resolved: z.optional(bool()) }).check(exactlyOneOf(['body', 'resolved'])),
);

/** PUT .../discussions/:discussion_id: `requires :resolved, type: Boolean`. */
export const ResolveDiscussionInput = schema(() => z.object({ resolved: bool() }));
