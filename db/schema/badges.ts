// Badges of projects and groups (GitLab's `badges`, ProjectBadge and GroupBadge): a link and an image URL with
// placeholders (%{project_path}...) rendered for the project they are shown on.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const badges = pgTable(
  'badges',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    name: text('name'),
    linkUrl: text('link_url').notNull(),
    imageUrl: text('image_url').notNull(),
    ...timestamps,
  },
  (t) => [
    index('badges_project_idx').on(t.projectId),
    index('badges_group_idx').on(t.groupId),
    check('badges_one_source', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
    check('badges_lengths', sql`char_length(${t.linkUrl}) <= 2048 AND char_length(${t.imageUrl}) <= 2048 AND char_length(${t.name}) <= 255`),
  ],
);

export type BadgeRow = typeof badges.$inferSelect;
