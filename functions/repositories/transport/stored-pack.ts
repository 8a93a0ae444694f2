// Serving a project's stored pack (repack.ts writes it): whether a fetch can start with it (or with its blob-less
// twin, for a partial clone), and which of the objects planned beyond it the pack already holds, by its sorted id
// list (20 bytes an id, written by oidPieces).
import type { Db } from '../../../db/client.ts';
import { currentPack, type StoredPack } from '../../../db/queries/repositories/packs.ts';
import { allInHistoryOf, type PackObject } from '../../../db/queries/repositories/transport.ts';
import { readStoredFile } from '../../lib/stored-files.ts';
import { oidToBytes } from '../git/oid.ts';

const BLOB = 3;

/**
 * The project's stored pack when a fetch of a whole history (no haves, no depth, no filter, a client that reads
 * OFS_DELTA: the caller checks) can start with it: everything the pack holds must be wanted, each of its tips a
 * wanted object or a commit in the wanted history (a branch deleted or rewritten since the repack would otherwise
 * bring objects the client did not ask for).
 */
export async function usableStoredPack(
  db: Db,
  projectId: number,
  wanted: { commits: readonly string[]; objects: readonly string[] },
): Promise<StoredPack | null> {
  const pack = await currentPack(db, projectId);
  if (!pack) return null;
  const named = new Set([...wanted.commits, ...wanted.objects]);
  const others = pack.tips.filter((t) => !named.has(t));
  return (await allInHistoryOf(db, projectId, others, wanted.commits)) ? pack : null;
}

/**
 * The pack's blob-less twin in its place (a `--filter=blob:none` clone), or null when it was built without one. Its
 * entries are the pack's own less the blobs, with the trees' deltas pointing at the same bases.
 */
export function bloblessPack(pack: StoredPack): StoredPack | null {
  return pack.trees ? { ...pack, file: { id: pack.trees.id, size: pack.trees.size }, objectCount: pack.trees.objectCount } : null;
}

/**
 * `objects` less those the stored pack holds (its id list is read whole: 20 bytes an object). `blobs: false`: the
 * blob-less twin is sent, so no blob counts as held.
 */
export async function withoutPacked(db: Db, stored: StoredPack, objects: readonly PackObject[], o: { blobs: boolean }): Promise<PackObject[]> {
  const ids = new Uint8Array(stored.oids.size);
  let at = 0;
  const reader = readStoredFile(db, stored.oids).getReader();
  for (let piece = await reader.read(); !piece.done; piece = await reader.read()) {
    ids.set(piece.value, at);
    at += piece.value.length;
  }
  return objects.filter((object) => (!o.blobs && object.type === BLOB) || !packHas(ids, object.oid));
}

/** Sorted ids as the id list stores them, a thousand at a time. */
export async function* oidPieces(sorted: readonly string[]) {
  for (let at = 0; at < sorted.length; at += 1000) {
    const batch = sorted.slice(at, at + 1000);
    const piece = new Uint8Array(batch.length * 20);
    batch.forEach((oid, i) => piece.set(oidToBytes(oid), i * 20));
    yield piece;
  }
}

/** Whether `oid` is in the id list `sorted` (20 bytes each, in byte order): a binary search. */
function packHas(sorted: Uint8Array, oid: string): boolean {
  const want = oidToBytes(oid);
  let lo = 0;
  let hi = sorted.length / 20;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    let cmp = 0;
    for (let i = 0; i < 20 && cmp === 0; i++) cmp = sorted[mid * 20 + i]! - want[i]!;
    if (cmp === 0) return true;
    if (cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}
