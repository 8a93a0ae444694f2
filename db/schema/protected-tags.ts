// GitLab's protected_tags with their create access level folded into the row: 13.6 CE keeps one role-based level
// per protected tag (protected_tag_create_access_levels holds one row; per-user and per-group rows are a paid
// feature), so one column says the same without a join.
import { integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';

export const protectedTags = pgTable(
  'protected_tags',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** A tag name, or a pattern where `*` matches any run of characters (ProtectedRefMatcher). */
    name: text('name').notNull(),
    /** Gitlab::Access: 0 no one, 30 developers + maintainers, 40 maintainers. */
    createAccessLevel: smallint('create_access_level').notNull(),
    ...timestamps,
  },
  // ProtectedTag validates `name` unique per project; the index makes a racing second POST fail instead of duplicating.
  (t) => [uniqueIndex('protected_tags_project_id_name_idx').on(t.projectId, t.name)],
);

export type ProtectedTagRow = typeof protectedTags.$inferSelect;
