import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/**
 * Namespaces: a user's personal namespace (kind 'user') or a group (kind 'group'), nested through parentId.
 * `traversalIds` is the path of ids from the root group down to this one (GitLab's traversal_ids): membership
 * inherited from ancestors is one `= ANY(traversal_ids)` test instead of a recursive query.
 */
export const namespaces = pgTable(
  'namespaces',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'user' | 'group'>().notNull(),
    name: text('name').notNull(),
    path: text('path').notNull(),
    fullPath: text('full_path').notNull(),
    parentId: integer('parent_id'),
    traversalIds: integer('traversal_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** 0 private, 10 internal, 20 public (GitLab's Gitlab::VisibilityLevel). */
    visibilityLevel: smallint('visibility_level').notNull().default(0),
    description: text('description').notNull().default(''),
    avatarUrl: text('avatar_url'),
    /**
     * A group's: bumped to rotate its runner registration token (GitLab's group `runners_token`), which is derived
     * from ENCRYPTION_KEY and this number (functions/runners/registration-token.ts) and so is never stored.
     */
    runnersTokenVersion: integer('runners_token_version').notNull().default(0),
    /**
     * A group's settings by their API names (functions/groups/settings.ts is their catalog: validation, defaults,
     * the entity); absent keys have the catalog's defaults. Personal namespaces have none.
     */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** Set when deletion was accepted (202): hidden at once, purged by the housekeeping job. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('namespaces_full_path_lower_idx').on(sql`lower(${t.fullPath})`),
    index('namespaces_parent_id_idx').on(t.parentId),
    index('namespaces_owner_id_idx').on(t.ownerId),
    index('namespaces_traversal_ids_idx').using('gin', t.traversalIds),
  ],
);

export type NamespaceRow = typeof namespaces.$inferSelect;
