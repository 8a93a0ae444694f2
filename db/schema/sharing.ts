// Sharing a project or a group with a group (GitLab's project_group_links and group_group_links): the members of the
// group shared with (direct or inherited) get the link's access level, or their own where it is lower, until the
// link expires. db/queries/lib/access.ts folds them into every access level and visibility the policy reads.
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, smallint, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const projectGroupLinks = pgTable(
  'project_group_links',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    groupAccess: smallint('group_access').notNull(),
    expiresAt: date('expires_at'),
    ...timestamps,
  },
  (t) => [
    // ProjectGroupLink validates group_id's uniqueness per project: the database keeps it under concurrent shares.
    unique('project_group_links_project_group_key').on(t.projectId, t.groupId),
    index('project_group_links_group_idx').on(t.groupId),
    check('project_group_links_access', sql`${t.groupAccess} IN (10, 20, 30, 40)`),
  ],
);

export const groupGroupLinks = pgTable(
  'group_group_links',
  {
    id: serial('id').primaryKey(),
    /** The group whose access is given. */
    sharedGroupId: integer('shared_group_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    /** The group whose members receive it. */
    sharedWithGroupId: integer('shared_with_group_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    groupAccess: smallint('group_access').notNull(),
    expiresAt: date('expires_at'),
    ...timestamps,
  },
  (t) => [
    unique('group_group_links_shared_key').on(t.sharedGroupId, t.sharedWithGroupId),
    index('group_group_links_shared_with_idx').on(t.sharedWithGroupId),
    check('group_group_links_access', sql`${t.groupAccess} IN (10, 20, 30, 40, 50)`),
  ],
);

export type ProjectGroupLinkRow = typeof projectGroupLinks.$inferSelect;
export type GroupGroupLinkRow = typeof groupGroupLinks.$inferSelect;
