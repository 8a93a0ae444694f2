// Commit comment inputs (GitLab 13.6 lib/api/commits.rb) and Entities::CommitNote.
import * as z from 'zod/mini';
import type { NoteView } from '../../../db/queries/notes.ts';
import type { Config } from '../../lib/context.ts';
import { iso } from '../../lib/format.ts';
import { paginationParams } from '../../lib/pagination.ts';
import { int, schema, text, type Output } from '../../lib/validate.ts';
import { toUserBasic } from '../../users/schemas.ts';
import type { CommentPosition } from './lines.ts';

export const ListCommitCommentsInput = schema(() => z.object({ ...paginationParams() }));

/** Grape's `type: String`: any text (a path names nothing when it matches no file; numbers from JSON as text). */
const anyText = () => text(Number.MAX_SAFE_INTEGER);

/** Grape's `given :path` (met when path is not blank): then `line` (Integer) and `line_type` (new|old) are required. */
const givenPath = () =>
  z.superRefine(
    (v: { path?: string | undefined; line?: unknown; line_type?: unknown }, ctx) => {
      if (typeof v?.path !== 'string' || !v.path.trim()) return;
      if (v.line === undefined) ctx.issues.push({ code: 'custom', message: 'is missing', path: ['line'], input: v.line });
      else if (!int().safeParse(v.line).success) ctx.issues.push({ code: 'custom', message: 'is invalid', path: ['line'], input: v.line });
      // line_type's `default: 'new'` comes after `requires`: a missing one is only `is missing`.
      if (v.line_type === undefined) ctx.issues.push({ code: 'custom', message: 'is missing', path: ['line_type'], input: v.line_type });
      else if (v.line_type !== 'new' && v.line_type !== 'old')
        ctx.issues.push({ code: 'custom', message: 'does not have a valid value', path: ['line_type'], input: v.line_type });
    },
    { when: () => true },
  );

/**
 * POST commits/:sha/comments: `note` (required; a blank one is the model's refusal, not Grape's), and the optional
 * place on the diff. Only what the given-path rule let through is read (`position`, null without a path).
 */
export const CreateCommitCommentInput = schema(() =>
  z.pipe(
    z.object({ note: anyText(), path: z.optional(anyText()), line: z.optional(z.unknown()), line_type: z.optional(z.unknown()) }).check(givenPath()),
    z.transform((v) => ({
      note: v.note,
      position: v.path?.trim() ? { path: v.path, line: int().parse(v.line), lineType: v.line_type as 'new' | 'old' } : null,
    })),
  ),
);
export type CommitCommentParams = Output<typeof CreateCommitCommentInput>;

/** Entities::CommitNote: note, path, line, line_type, author, created_at. */
export function toCommitNote(view: NoteView, position: CommentPosition, config: Config) {
  return {
    note: view.note.body,
    path: position.path,
    line: position.line,
    line_type: position.line_type,
    author: view.author ? toUserBasic(view.author, config) : null,
    created_at: iso(view.note.createdAt),
  };
}
