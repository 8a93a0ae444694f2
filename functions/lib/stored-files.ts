// The chunked byte store (DESIGN.md "Large bytes"): a stream goes in chunk by chunk, one INSERT per CHUNK_SIZE
// bytes, and comes out the same way, one SELECT per chunk as the reader pulls. A request holds one chunk (plus what
// the network hands over), never the file, whatever its size. Files are owned by a row elsewhere (a job artifact);
// a write that fails or is refused deletes what it stored.
import type { Db } from '../../db/client.ts';
import { createStoredFile, deleteStoredFile, finishStoredFile, insertChunk, readChunk } from '../../db/queries/lib/stored-files.ts';
import { toHex } from './crypto.ts';
import { Sha256 } from './sha256.ts';

/**
 * 1 MiB: Neon's HTTP driver sends a chunk as hex text (2 MiB a statement, well under its 10 MB answers), and a 100 MB
 * artifact is 100 statements.
 */
export const CHUNK_SIZE = 1024 * 1024;

export interface StoredFile {
  id: number;
  size: number;
  sha256: string;
}

/** More bytes than the writer's `maxBytes`: nothing is kept. */
export class FileTooLarge extends Error {}

/**
 * A new file written piece by piece (any sizes, in order): each full chunk is inserted as it fills, `finish` stores
 * the rest and the size and digest. Past `maxBytes` a write throws FileTooLarge. The caller deletes what was
 * stored when it gives up (`discard`).
 */
export class StoredFileWriter {
  private readonly hash = new Sha256();
  private readonly chunk = new Uint8Array(CHUNK_SIZE);
  private filled = 0;
  private seq = 0;
  size = 0;

  private constructor(
    private readonly db: Db,
    readonly id: number,
    private readonly maxBytes: number,
  ) {}

  static async create(db: Db, o: { maxBytes: number }): Promise<StoredFileWriter> {
    return new StoredFileWriter(db, await createStoredFile(db), o.maxBytes);
  }

  async write(piece: Uint8Array): Promise<void> {
    this.size += piece.length;
    if (this.size > this.maxBytes) throw new FileTooLarge();
    this.hash.update(piece);
    for (let at = 0; at < piece.length;) {
      const take = Math.min(CHUNK_SIZE - this.filled, piece.length - at);
      this.chunk.set(piece.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === CHUNK_SIZE) {
        await insertChunk(this.db, this.id, this.seq++, this.chunk);
        this.filled = 0;
      }
    }
  }

  async finish(): Promise<StoredFile> {
    if (this.filled > 0) await insertChunk(this.db, this.id, this.seq, this.chunk.subarray(0, this.filled));
    const sha256 = toHex(this.hash.digest());
    await finishStoredFile(this.db, this.id, this.size, sha256);
    return { id: this.id, size: this.size, sha256 };
  }

  discard(): Promise<void> {
    return deleteStoredFile(this.db, this.id);
  }
}

/**
 * Stores `pieces` (any sizes, in order) as a new file; refuses past `maxBytes` (FileTooLarge). On any failure, the
 * source's included, what was stored is deleted and the error rethrown.
 */
export async function writeStoredFile(db: Db, pieces: AsyncIterable<Uint8Array>, o: { maxBytes: number }): Promise<StoredFile> {
  const file = await StoredFileWriter.create(db, o);
  try {
    for await (const piece of pieces) await file.write(piece);
    return await file.finish();
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/** Deletes a file its owner did not take (e.g. a second upload of an artifact that exists). */
export const discardStoredFile = (db: Db, id: number) => deleteStoredFile(db, id);

/** The file's bytes as a stream that reads one chunk per pull (the response's backpressure paces the reads). */
export function readStoredFile(db: Db, file: { id: number; size: number }): ReadableStream<Uint8Array> {
  let seq = 0;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (sent >= file.size) return controller.close();
        const data = await readChunk(db, file.id, seq++);
        if (!data || data.length === 0) return controller.error(new Error(`stored file ${file.id}: chunk ${seq - 1} missing`));
        sent += data.length;
        controller.enqueue(data);
      },
    },
    { highWaterMark: 0 },
  );
}
