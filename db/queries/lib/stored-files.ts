// The chunked byte store's statements (db/schema/stored-files.ts): each moves one chunk at most, so no statement's
// parameters or answer grow with the file.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { ciJobArtifacts, gitPacks, storedFileChunks, storedFiles } from '../../schema/index.ts';
import { rows } from './raw.ts';
import { fromHexText, toHexText } from './hex.ts';

/** A new, unfinished file; its chunks follow. */
export async function createStoredFile(db: Db): Promise<number> {
  const [row] = await db.insert(storedFiles).values({}).returning({ id: storedFiles.id });
  return row!.id;
}

/**
 * One chunk, sent as hex text and decoded by the database: what neon-http sends for bytea anyway, and about five
 * times faster than PGlite's own serialization of a Uint8Array parameter (~0.5 s a MiB).
 */
export async function insertChunk(db: Db, fileId: number, seq: number, data: Uint8Array) {
  await db.insert(storedFileChunks).values({ fileId, seq, data: sql`decode(${toHexText(data)}, 'hex')` });
}

/** The file is complete: its size and digest are known. */
export async function finishStoredFile(db: Db, fileId: number, size: number, sha256: string) {
  await db.update(storedFiles).set({ size, sha256 }).where(eq(storedFiles.id, fileId));
}

/**
 * The files that no owner took and that are older than `olderThan`: what a write left behind when its isolate
 * stopped between writing a file and attaching it (an upload cut off, a repack ended by its time limit), which its
 * own clean-up never ran for. The owners are every column that points at a file. Deletes at most `limit`; answers how
 * many.
 */
export async function deleteOrphanedFiles(db: Db, olderThan: SQL, limit: number): Promise<number> {
  const gone = await rows<{ id: number }>(
    db,
    sql`DELETE FROM ${storedFiles} WHERE id IN (
      SELECT f.id FROM ${storedFiles} f WHERE f.created_at < ${olderThan}
        AND NOT EXISTS (SELECT 1 FROM ${ciJobArtifacts} a WHERE a.file_id = f.id)
        AND NOT EXISTS (SELECT 1 FROM ${gitPacks} p WHERE f.id IN (p.file_id, p.oids_file_id, p.trees_file_id))
      LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING id`,
  );
  return gone.length;
}

/** Deletes a file and its chunks (a refused or abandoned upload). */
export async function deleteStoredFile(db: Db, fileId: number) {
  await db.delete(storedFiles).where(eq(storedFiles.id, fileId));
}

/**
 * One chunk, answered as hex text: what neon-http answers for bytea anyway, decoded here in one pass (PGlite's and
 * the bytea column's own decoding cost ~0.3 s a MiB).
 */
export async function readChunk(db: Db, fileId: number, seq: number): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ hex: sql<string>`encode(${storedFileChunks.data}, 'hex')` })
    .from(storedFileChunks)
    .where(and(eq(storedFileChunks.fileId, fileId), eq(storedFileChunks.seq, seq)));
  return row ? fromHexText(row.hex) : undefined;
}
