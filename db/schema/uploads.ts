// Markdown attachments of projects (GitLab's FileUploader uploads): a file under a random secret, its bytes in the
// chunked store (stored_files), served at /<project path>/uploads/<secret>/<filename> under the project's read
// rule. A trigger (migration 0024) deletes the bytes with the row, so a project's deletion leaves none behind.
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { storedFiles } from './stored-files.ts';
import { users } from './users.ts';

export const projectUploads = pgTable(
  'project_uploads',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** 32 hex characters (FileUploader's SecureRandom.hex): the URL is unguessable. */
    secret: text('secret').notNull(),
    /** The uploaded name, sanitized as CarrierWave does. */
    filename: text('filename').notNull(),
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => storedFiles.id),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('project_uploads_project_secret_idx').on(t.projectId, t.secret), index('project_uploads_file_idx').on(t.fileId)],
);

export type ProjectUploadRow = typeof projectUploads.$inferSelect;
