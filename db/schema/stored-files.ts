// Large bytes in chunks (DESIGN.md "Large bytes"): a stored file is a row of its own plus its bytes in ordered
// chunks of at most CHUNK_SIZE (functions/lib/stored-files.ts), written and read one chunk per statement, so neither
// a request nor a database answer ever holds the whole file (a Worker has 128 MB; Neon's HTTP answers stop at
// 10 MB). Owners (job artifacts) point at a file; a file whose owner row goes is deleted with it by a trigger
// (migration 0016), so cascades from a job or a project leave no bytes behind.
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from './_columns.ts';

export const storedFiles = pgTable(
  'stored_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Bytes and SHA-256 (hex) of the whole file; null while the file is being written. */
    size: bigint('size', { mode: 'number' }),
    sha256: text('sha256'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // Files no owner took (an upload cut off mid-way, a repack stopped) are found by age for the purge
  // (db/queries/lib/stored-files.ts deleteOrphanedFiles, from the cron's object_pool_cleanup).
  (t) => [index('stored_files_created_at_idx').on(t.createdAt)],
);

export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

export type StoredFileRow = typeof storedFiles.$inferSelect;
