// Notes (comments and system notes) on issues, snippets, commits and, later, merge requests: GitLab's notes, with
// `type` its STI class (null for a plain Note, 'DiscussionNote', 'DiffNote', 'LegacyDiffNote') and `discussion_id`
// grouping replies. A commit is no row: its notes name it by `commit_id` within their project, as GitLab's do.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const notes = pgTable(
  'notes',
  {
    id: serial('id').primaryKey(),
    noteableType: text('noteable_type').$type<'Issue' | 'Snippet' | 'MergeRequest' | 'Commit' | 'Epic' | 'AlertManagement::Alert'>().notNull(),
    /** The or snippet's id; null for notes on commits (GitLab's `noteable_id`, not validated for commits). */
    noteableId: integer('noteable_id'),
    /** Notes on commits: the commit's full SHA (Note.for_commit_id); null otherwise. */
    commitId: text('commit_id'),
    /** Null for notes on personal snippets. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    type: text('type').$type<'DiscussionNote' | 'DiffNote' | 'LegacyDiffNote'>(),
    /** A LegacyDiffNote's line on its commit's diff: GitLab's line code, `<SHA-1 of the path>_<old line>_<new line>`. */
    lineCode: text('line_code'),
    /** 40 hex characters; the first note of a discussion sets it, replies share it. */
    discussionId: text('discussion_id').notNull(),
    system: boolean('system').notNull().default(false),
    /** What a system note records ('closed', 'opened', 'assignee', 'label', 'milestone', ...). */
    systemAction: text('system_action'),
    /** GitLab 13.x confidential notes: visible to reporters and above and the noteable's author and assignees. */
    confidential: boolean('confidential').notNull().default(false),
    /**
     * A DiffNote's place on a merge request's diff version: Gitlab::Diff::Position#to_h (snake_case keys, as the REST
     * entity shows it; functions/merge-requests/positions.ts owns the shape).
     */
    position: jsonb('position').$type<Record<string, unknown>>(),
    /** Resolvable notes (merge request discussions): when and by whom the note was resolved. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('notes_noteable_idx').on(t.noteableType, t.noteableId, t.id),
    index('notes_discussion_id_idx').on(t.discussionId),
    index('notes_author_id_idx').on(t.authorId),
    index('notes_project_id_idx')
      .on(t.projectId)
      .where(sql`${t.projectId} IS NOT NULL`),
    // A commit's notes, oldest first (`commit.notes.order(:created_at)`).
    index('notes_commit_idx')
      .on(t.projectId, t.commitId, t.createdAt, t.id)
      .where(sql`${t.commitId} IS NOT NULL`),
    // Notes on commits name their commit (and project) instead of a noteable row; every other note names its row.
    check(
      'notes_noteable_key',
      sql`CASE WHEN ${t.noteableType} = 'Commit' THEN ${t.commitId} IS NOT NULL AND ${t.projectId} IS NOT NULL AND ${t.noteableId} IS NULL ELSE ${t.noteableId} IS NOT NULL AND ${t.commitId} IS NULL END`,
    ),
  ],
);

export type NoteRow = typeof notes.$inferSelect;
