import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * Uploaded avatars, the image bytes themselves: one per user, group or project (GitLab's AvatarUploader mounts one
 * file per model). Kept in Postgres so every runtime (PGlite locally, Neon in production) serves them alike; the
 * owner's row carries the URL (`avatar_url`), written in the same transaction. An owner's deletion takes its
 * avatar along (the foreign keys cascade).
 */
export const avatars = pgTable(
  'avatars',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A group's namespace. */
    namespaceId: integer('namespace_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** The uploaded file's name, sanitized as CarrierWave does: the last segment of the URL. */
    filename: text('filename').notNull(),
    /** What the bytes are (sniffed from their magic numbers, never taken from the client). */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** SHA-256 of the bytes, hex: the ETag clients revalidate with (the URL stays the same across uploads). */
    checksum: text('checksum').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('avatars_user_id_idx').on(t.userId),
    uniqueIndex('avatars_namespace_id_idx').on(t.namespaceId),
    uniqueIndex('avatars_project_id_idx').on(t.projectId),
    check('avatars_one_owner', sql`num_nonnulls(${t.userId}, ${t.namespaceId}, ${t.projectId}) = 1`),
  ],
);

export type AvatarRow = typeof avatars.$inferSelect;
