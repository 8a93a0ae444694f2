// Custom attributes of users, groups and projects (GitLab's user_custom_attributes, group_custom_attributes and
// project_custom_attributes, in one table): key-value pairs only administrators see and set.
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const customAttributes = pgTable(
  'custom_attributes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    namespaceId: integer('namespace_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('custom_attributes_user_key_idx').on(t.userId, t.key),
    uniqueIndex('custom_attributes_namespace_key_idx').on(t.namespaceId, t.key),
    uniqueIndex('custom_attributes_project_key_idx').on(t.projectId, t.key),
    check('custom_attributes_one_owner', sql`num_nonnulls(${t.userId}, ${t.namespaceId}, ${t.projectId}) = 1`),
  ],
);
