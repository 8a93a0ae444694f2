// git repack for a project (GitLab's housekeeping, GitGarbageCollectWorker): every object reachable from its branches
// and tags, written once as a pack's entries with deltas into the chunked store, so that a clone streams stored
// bytes (upload-pack.ts) instead of planning every object and compressing it again. Built after pushes once enough
// objects came since the last pack (repackIfDue, from the post_receive job), as `git gc --auto` does.
//
// The objects are walked the way pack-objects orders them: commits newest first, then tags, then for each run of
// commits their trees level by level and their blobs, each tree and blob under the path it was first met at. An
// object is written as an OFS_DELTA against the last one written at the same path when that saves half its size
// (git/delta.ts createDelta): with history walked newest first, the newest version is whole and older ones are deltas
// of newer ones, as git prefers; chains stop at git's pack.depth, 50. The same entries less the blobs are written
// beside, as a second pack (each delta compressed once, its base offset counted in each pack), which blob-less
// partial clones stream. What is held in memory: the set of ids seen, one batch of bodies, and the last body per path
// up to a budget.
import type { Db } from '../../../db/client.ts';
import { commitsWithTrees, currentPack, makePackCurrent } from '../../../db/queries/repositories/packs.ts';
import { advertisedRefs } from '../../../db/queries/repositories/transport.ts';
import type { JobContext } from '../../housekeeping/service.ts';
import { StoredFileWriter } from '../../lib/stored-files.ts';
import { deflateSync } from 'node:zlib';
import { createDelta } from '../git/delta.ts';
import { decodeTree, entryType } from '../git/tree.ts';
import { deltaEntry, packEntry, storedBatches } from './pack.ts';
import { oidPieces } from './stored-pack.ts';
import { resolveWants } from './upload-pack.ts';

/** git's pack.depth: the longest delta chain. */
const MAX_DEPTH = 50;
/** Objects larger than this are written whole (and never kept as a base): a delta search is linear in both sizes. */
const MAX_DELTA_SIZE = 1024 * 1024;
/** The bodies kept as bases, at most (the least recently used path goes first). */
const BASE_BUDGET = 32 * 1024 * 1024;
/** Commits whose trees and blobs are walked together (one level of trees is one read per batch). */
const COMMIT_RUN = 100;
/** A pack has no size limit of its own: the repository's size is what it is. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;
const COMMIT = 1;
const TREE = 2;
const BLOB = 3;

/** Where a base was written in each pack: the full one and the one without blobs (trees and commits are in both). */
interface Base {
  offset: number;
  treesOffset: number;
  body: Uint8Array;
  depth: number;
}

/** An entry for each pack: the full one's, and the blob-less one's (null for a blob). */
interface Entry {
  full: Uint8Array;
  trees: Uint8Array | null;
}

/** Builds entries for both packs, remembering their offsets and the bases per path. */
class PackBuilder {
  offset = 0;
  treesOffset = 0;
  count = 0;
  treesCount = 0;
  readonly oids: string[] = [];
  private readonly bases = new Map<string, Base>();
  private baseBytes = 0;

  entry(oid: string, type: number, body: Uint8Array, path: string | null): Entry {
    const key = path === null ? null : `${type}:${path}`;
    const base = key === null ? undefined : this.bases.get(key);
    const inTrees = type !== BLOB;
    let entry: Entry | undefined;
    let depth = 0;
    if (base && base.depth < MAX_DEPTH && body.length <= MAX_DELTA_SIZE) {
      const delta = createDelta(base.body, body);
      if (delta) {
        const data = deflateSync(delta);
        entry = {
          full: deltaEntry(delta.length, data, this.offset - base.offset),
          trees: inTrees ? deltaEntry(delta.length, data, this.treesOffset - base.treesOffset) : null,
        };
        depth = base.depth + 1;
      }
    }
    if (!entry) {
      const whole = packEntry(type, body);
      entry = { full: whole, trees: inTrees ? whole : null };
    }
    if (key !== null && body.length <= MAX_DELTA_SIZE) this.remember(key, { offset: this.offset, treesOffset: this.treesOffset, body, depth });
    this.offset += entry.full.length;
    this.count++;
    if (entry.trees) {
      this.treesOffset += entry.trees.length;
      this.treesCount++;
    }
    this.oids.push(oid);
    return entry;
  }

  private remember(key: string, base: Base) {
    const old = this.bases.get(key);
    if (old) {
      this.baseBytes -= old.body.length;
      this.bases.delete(key);
    }
    this.bases.set(key, base);
    this.baseBytes += base.body.length;
    for (const [k, v] of this.bases) {
      if (this.baseBytes <= BASE_BUDGET) break;
      this.bases.delete(k);
      this.baseBytes -= v.body.length;
    }
  }
}

const utf8 = new TextDecoder();

/** The objects of `oids` in that order, one at a time (read a batch at a time). */
async function* bodies(db: Db, projectId: number, oids: readonly string[]) {
  for await (const batch of storedBatches(db, projectId, oids)) yield* batch;
}

/** The pack's entries, in pack-objects' order (see the top of this file). */
async function* entries(db: Db, projectId: number, builder: PackBuilder, wanted: { commits: string[]; objects: string[] }) {
  const seen = new Set<string>();
  const commits = await commitsWithTrees(db, projectId, wanted.commits);
  for (const c of commits) seen.add(c.oid);
  for await (const o of bodies(
    db,
    projectId,
    commits.map((c) => c.oid),
  ))
    yield builder.entry(o.oid, COMMIT, o.data, null);
  // Annotated tags, and what a tag names that is not a commit (a tree's content is walked below, a blob written).
  const roots: { oid: string; path: string }[] = [];
  const looseBlobs: { oid: string; path: string }[] = [];
  for await (const o of bodies(
    db,
    projectId,
    wanted.objects.filter((oid) => !seen.has(oid)),
  )) {
    if (seen.has(o.oid)) continue;
    if (o.type === TREE) {
      roots.push({ oid: o.oid, path: '' }); // marked seen when its level is read
      continue;
    }
    seen.add(o.oid);
    if (o.type === BLOB) looseBlobs.push({ oid: o.oid, path: '' });
    else yield builder.entry(o.oid, o.type, o.data, null);
  }
  const runs: { oid: string; path: string }[][] = [roots];
  for (let at = 0; at < commits.length; at += COMMIT_RUN) runs.push(commits.slice(at, at + COMMIT_RUN).map((c) => ({ oid: c.tree, path: '' })));
  for (const [index, run] of runs.entries()) {
    const blobs = index === 0 ? looseBlobs : [];
    // Each tree once: commits may share a root tree (an empty commit, a revert), as a tag may name one a commit has.
    let level: { oid: string; path: string }[] = [];
    for (const t of run) {
      if (seen.has(t.oid)) continue;
      seen.add(t.oid);
      level.push(t);
    }
    while (level.length) {
      const next: { oid: string; path: string }[] = [];
      let i = 0;
      for await (const tree of bodies(
        db,
        projectId,
        level.map((t) => t.oid),
      )) {
        const path = level[i++]!.path;
        yield builder.entry(tree.oid, TREE, tree.data, path);
        for (const e of decodeTree(tree.data)) {
          const kind = entryType(e.mode);
          if (kind === 'commit' || seen.has(e.oid)) continue; // a submodule's commit is another repository's
          seen.add(e.oid);
          (kind === 'tree' ? next : blobs).push({ oid: e.oid, path: `${path}/${utf8.decode(e.name)}` });
        }
      }
      level = next;
    }
    let j = 0;
    for await (const blob of bodies(
      db,
      projectId,
      blobs.map((b) => b.oid),
    ))
      yield builder.entry(blob.oid, BLOB, blob.data, blobs[j++]!.path);
  }
}

export interface RepackResult {
  objects: number;
  bytes: number;
}

/**
 * Builds the project's pack from its branches and tags now and makes it current. Null when there is nothing to do:
 * no branch or tag, or the current pack was built from the same refs.
 */
export async function repack(job: JobContext, projectId: number): Promise<RepackResult | null> {
  const db = job.ctx.db;
  const refs = (await advertisedRefs(db, projectId)).filter((r) => r.name.startsWith('refs/heads/') || r.name.startsWith('refs/tags/'));
  const tips = [...new Set(refs.map((r) => r.oid))].sort();
  if (!tips.length) return null;
  const current = await currentPack(db, projectId);
  if (current && current.tips.length === tips.length && current.tips.every((t, i) => t === tips[i])) return null;
  const wanted = await resolveWants(db, { projectId, defaultBranch: null }, tips);
  const builder = new PackBuilder();
  const files: StoredFileWriter[] = [];
  try {
    const full = await StoredFileWriter.create(db, { maxBytes: NO_LIMIT });
    files.push(full);
    const trees = await StoredFileWriter.create(db, { maxBytes: NO_LIMIT });
    files.push(trees);
    for await (const entry of entries(db, projectId, builder, wanted)) {
      await full.write(entry.full);
      if (entry.trees) await trees.write(entry.trees);
    }
    const oids = await StoredFileWriter.create(db, { maxBytes: NO_LIMIT });
    files.push(oids);
    for await (const piece of oidPieces(builder.oids.sort())) await oids.write(piece);
    const written = { full: await full.finish(), trees: await trees.finish(), oids: await oids.finish() };
    await job.ctx.transaction((tx) =>
      makePackCurrent(tx, {
        projectId,
        tips,
        objectCount: builder.count,
        fileId: written.full.id,
        oidsFileId: written.oids.id,
        treesFileId: written.trees.id,
        treesObjectCount: builder.treesCount,
      }),
    );
    return { objects: builder.count, bytes: written.full.size };
  } catch (error) {
    for (const file of files) await file.discard();
    throw error;
  }
}
