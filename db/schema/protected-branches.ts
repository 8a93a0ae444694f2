// GitLab's protected_branches with their push and merge access levels folded into the row: 13.6 CE keeps one
// role-based access level per action (protected_branch_push_access_levels / _merge_access_levels hold one row each;
// the per-user and per-group rows are a paid feature), so two columns say the same without two joins.
import { integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';

export const protectedBranches = pgTable(
  'protected_branches',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** A branch name, or a pattern where `*` matches any run of characters (ProtectedRefMatcher). */
    name: text('name').notNull(),
    /** Gitlab::Access: 0 no one, 30 developers + maintainers, 40 maintainers, 60 admins. */
    pushAccessLevel: smallint('push_access_level').notNull(),
    mergeAccessLevel: smallint('merge_access_level').notNull(),
    ...timestamps,
  },
  // GitLab validates `name` unique per project; the index makes a racing second POST fail instead of duplicating.
  (t) => [uniqueIndex('protected_branches_project_id_name_idx').on(t.projectId, t.name)],
);

export type ProtectedBranchRow = typeof protectedBranches.$inferSelect;
