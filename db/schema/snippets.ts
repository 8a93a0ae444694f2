// Personal and project snippets (GitLab's STI `type`), and their files (13.x snippets hold one or more files; the
// first file's name is `file_name` in the API).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const snippets = pgTable(
  'snippets',
  {
    id: serial('id').primaryKey(),
    type: text('type').$type<'PersonalSnippet' | 'ProjectSnippet'>().notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    /** 0 private, 10 internal, 20 public. */
    visibilityLevel: smallint('visibility_level').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check('snippets_type_project', sql`(${t.type} = 'ProjectSnippet') = (${t.projectId} IS NOT NULL)`),
    index('snippets_project_id_idx').on(t.projectId),
    index('snippets_author_id_idx').on(t.authorId, t.id),
    index('snippets_visibility_level_id_idx').on(t.visibilityLevel, t.id),
  ],
);

export const snippetFiles = pgTable(
  'snippet_files',
  {
    snippetId: integer('snippet_id')
      .notNull()
      .references(() => snippets.id, { onDelete: 'cascade' }),
    /** Order of the files (the first is `file_name`). */
    position: smallint('position').notNull(),
    path: text('path').notNull(),
    content: text('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snippetId, t.path] })],
);

export type SnippetRow = typeof snippets.$inferSelect;
