// Notes (comments and system notes) on issues, snippets and, later, merge requests and commits: GitLab's notes, with
// `type` its STI class (null for a plain Note, 'DiscussionNote', 'DiffNote') and `discussion_id` grouping replies.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const notes = pgTable(
  'notes',
  {
    id: serial('id').primaryKey(),
    noteableType: text('noteable_type').$type<'Issue' | 'Snippet' | 'MergeRequest' | 'Commit'>().notNull(),
    noteableId: integer('noteable_id').notNull(),
    /** Null for notes on personal snippets. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    type: text('type').$type<'DiscussionNote' | 'DiffNote'>(),
    /** 40 hex characters; the first note of a discussion sets it, replies share it. */
    discussionId: text('discussion_id').notNull(),
    system: boolean('system').notNull().default(false),
    /** What a system note records ('closed', 'opened', 'assignee', 'label', 'milestone', ...). */
    systemAction: text('system_action'),
    /** GitLab 13.x confidential notes: visible to reporters and above and the noteable's author and assignees. */
    confidential: boolean('confidential').notNull().default(false),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('notes_noteable_idx').on(t.noteableType, t.noteableId, t.id),
    index('notes_discussion_id_idx').on(t.discussionId),
    index('notes_author_id_idx').on(t.authorId),
    index('notes_project_id_idx').on(t.projectId).where(sql`${t.projectId} IS NOT NULL`),
  ],
);

export type NoteRow = typeof notes.$inferSelect;
