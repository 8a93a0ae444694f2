// The chunked byte store's statements (db/schema/stored-files.ts): each moves one chunk at most, so no statement's
// parameters or answer grow with the file.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { storedFileChunks, storedFiles } from '../schema/index.ts';

/** A new, unfinished file; its chunks follow. */
export async function createStoredFile(db: Db): Promise<number> {
  const [row] = await db.insert(storedFiles).values({}).returning({ id: storedFiles.id });
  return row!.id;
}

export async function insertChunk(db: Db, fileId: number, seq: number, data: Uint8Array) {
  await db.insert(storedFileChunks).values({ fileId, seq, data: data as Uint8Array<ArrayBuffer> });
}

/** The file is complete: its size and digest are known. */
export async function finishStoredFile(db: Db, fileId: number, size: number, sha256: string) {
  await db.update(storedFiles).set({ size, sha256 }).where(eq(storedFiles.id, fileId));
}

/** Deletes a file and its chunks (a refused or abandoned upload). */
export async function deleteStoredFile(db: Db, fileId: number) {
  await db.delete(storedFiles).where(eq(storedFiles.id, fileId));
}

export async function readChunk(db: Db, fileId: number, seq: number): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ data: storedFileChunks.data })
    .from(storedFileChunks)
    .where(and(eq(storedFileChunks.fileId, fileId), eq(storedFileChunks.seq, seq)));
  return row?.data;
}
