// Writing git objects into a repository's pool: the objects themselves and the rows derived from them (commit graph
// and fields, tree entries, changed paths), built as the statements of ONE batch that ends with the ref updates'
// compare-and-swap. A write is all or nothing: when a ref has moved, the batch fails and rolls back every row it
// would have added, objects included, so a lost race leaves nothing behind (not even content-addressed objects,
// which would be harmless, but would be garbage no ref reaches).
//
//   const write = await prepareWrite(objects);                  // hashing is async (WebCrypto), building is not
//   await applyWrite(ctx, poolId, write, [{ projectId, name: 'refs/heads/main', old, new: write.oids[0] }]);
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database, Db } from '../../../db/client.ts';
import { isRefConflict, updateRefQuery, type RefUpdate } from '../../../db/queries/repositories/refs.ts';
import {
  insertCommitPathsQueries,
  insertCommitsQueries,
  insertObjectsQueries,
  insertTreeEntriesQueries,
  type CommitRow,
  type ObjectRow,
  type TreeEntryRow,
} from '../../../db/queries/repositories/objects.ts';
import { GIT_OBJECT_TYPES } from '../../../db/schema/repositories.ts';
import { decodeCommit, messageText, title } from '../git/commit.ts';
import { hashObject, type ObjectType } from '../git/oid.ts';
import { decodeTag } from '../git/tag.ts';
import { decodeTree } from '../git/tree.ts';
import { generations } from './graph.ts';

export type { RefUpdate };

export interface GitObject {
  type: ObjectType;
  /** The body, without git's `<type> <size>\0` header. */
  body: Uint8Array;
  /** Its id, when the caller has computed it from this very body (a received pack's objects): not hashed again. */
  oid?: string;
}

/**
 * A header's text for display: the codec keeps each byte that is not UTF-8 as an escape (U+DC80..U+DCFF, see
 * git/text.ts); shown as Latin-1, the usual charset of such names, rather than lost.
 */
const display = (text: string) => text.replace(/(?<![\ud800-\udbff])[\udc80-\udcff]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xdc00));

/** Objects hashed and decoded, with the rows derived from them: what `writeStatements` turns into a batch. */
export interface PreparedWrite {
  /** The id of each object given, in the order given. */
  oids: string[];
  objects: ObjectRow[];
  treeEntries: TreeEntryRow[];
  commits: CommitRow[];
}

/**
 * Hashes `objects` (git's SHA-1 of header and body) and derives their rows. Objects given twice are written once.
 * Throws on an object that does not decode (a malformed tree or commit is never stored).
 */
export async function prepareWrite(objects: readonly GitObject[]): Promise<PreparedWrite> {
  const oids = await Promise.all(objects.map((o) => o.oid ?? hashObject(o.type, o.body)));
  const rows = new Map<string, ObjectRow>();
  const treeEntries: TreeEntryRow[] = [];
  const decoded: { oid: string; commit: ReturnType<typeof decodeCommit> }[] = [];
  objects.forEach((object, i) => {
    const oid = oids[i]!;
    if (rows.has(oid)) return;
    rows.set(oid, { oid, type: GIT_OBJECT_TYPES[object.type], data: Uint8Array.from(object.body) });
    if (object.type === 'tree') {
      for (const e of decodeTree(object.body)) treeEntries.push({ treeOid: oid, name: Uint8Array.from(e.name), mode: e.mode, oid: e.oid });
    } else if (object.type === 'commit') {
      decoded.push({ oid, commit: decodeCommit(object.body) });
    } else if (object.type === 'tag') {
      decodeTag(object.body); // only checked: reads peel a tag by its `object` line (repositories/sql.ts)
    }
  });
  const graph = generations(decoded.map(({ oid, commit }) => ({ oid, parents: commit.parents })));
  const commits = decoded.map(({ oid, commit }): CommitRow => {
    const { author, committer } = commit;
    return {
      oid,
      treeOid: commit.tree,
      parentOids: commit.parents,
      ...graph.get(oid)!,
      author: { name: display(author.name), email: display(author.email), time: author.time, tz: author.tz },
      committer: { name: display(committer.name), email: display(committer.email), time: committer.time, tz: committer.tz },
      title: title(commit),
      message: messageText(commit),
    };
  });
  return { oids, objects: [...rows.values()], treeEntries, commits };
}

/**
 * The statements that store a prepared write in `poolId`, in dependency order: objects, tree entries, commits (their
 * generations read the stored parents'), then changed paths (computed from the rows written before them).
 */
export function writeStatements(db: Db, poolId: number, write: PreparedWrite): BatchItem<'pg'>[] {
  return [
    ...insertObjectsQueries(db, poolId, write.objects),
    ...insertTreeEntriesQueries(db, poolId, write.treeEntries),
    ...insertCommitsQueries(db, poolId, write.commits),
    ...insertCommitPathsQueries(
      db,
      poolId,
      write.commits.map((c) => c.oid),
    ),
  ];
}

/** A ref was not where the write expected it (someone else moved, created or deleted it first). */
export class RefConflictError extends Error {
  constructor(readonly refs: readonly string[]) {
    super(`ref update conflict: ${refs.join(', ')}`);
    this.name = 'RefConflictError';
  }
}

/**
 * Writes `write` and moves `refs` in one batch (one round trip, atomic). Throws RefConflictError when a ref has
 * moved: nothing of the write is stored then. The service turns that into GitLab's wording.
 */
export async function applyWrite(database: Pick<Database, 'batch'>, poolId: number, write: PreparedWrite, refs: readonly RefUpdate[]): Promise<void> {
  // Refs in one order for every writer: two writes moving the same refs lock them alike and cannot deadlock.
  const ordered = [...refs].sort((a, b) => a.projectId - b.projectId || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const statements = (db: Db) => [...writeStatements(db, poolId, write), ...ordered.map((u) => updateRefQuery(db, u))];
  if (!write.objects.length && !refs.length) return;
  try {
    await database.batch((db) => statements(db) as unknown as readonly [BatchItem<'pg'>]);
  } catch (error) {
    if (isRefConflict(error)) throw new RefConflictError(refs.map((u) => u.name));
    throw error;
  }
}
