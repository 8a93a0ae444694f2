// From a received pack's entries to the objects a push stores, as git's index-pack --strict --fix-thin does it:
// deltas applied (an OFS_DELTA's base earlier in the pack; a REF_DELTA's later in it or, a thin pack, among the
// objects the project may read: never another project's of the pool, whose content a delta would copy out), every
// object's id computed from its content, and each object checked as GitLab's receive.fsckObjects does (commits'
// and tags' headers, trees' modes, names, order and duplicates). Then `missingLinks` says which objects the pushed
// objects point at that are neither in the pack nor readable: a ref whose new history reaches one is refused
// ("missing necessary objects").
import { decodeCommit } from '../git/commit.ts';
import { applyDelta, DeltaError } from '../git/delta.ts';
import { hashObject, type ObjectType } from '../git/oid.ts';
import { decodeTag } from '../git/tag.ts';
import { decodeTree, type TreeEntry } from '../git/tree.ts';
import { checkEntryName } from '../git/verify-path.ts';
import type { GitObject } from '../store/store.ts';
import { OBJ_BLOB, OBJ_COMMIT, OBJ_OFS_DELTA, OBJ_REF_DELTA, OBJ_TAG, OBJ_TREE, PackError, type PackEntry } from './pack-reader.ts';

/** A pack entry's (or a stored object's) type number as git names it. */
export const TYPE_NAMES: Record<number, ObjectType> = { [OBJ_COMMIT]: 'commit', [OBJ_TREE]: 'tree', [OBJ_BLOB]: 'blob', [OBJ_TAG]: 'tag' };
const GITLINK = '160000';

export interface ReceivedObject extends GitObject {
  /** Computed from the body here, so the store does not hash it again. */
  oid: string;
  /** The ids this object points at (a commit's tree and parents, a tree's entries but submodules, a tag's object). */
  links: string[];
}

/** Stored objects the project may read, by id (a thin pack's REF_DELTA bases). */
export type BaseLoader = (oids: readonly string[]) => Promise<Map<string, { type: number; data: Uint8Array }>>;

const fsckError = (oid: string, id: string, text: string) => new PackError('index-pack abnormal exit', `object ${oid}: ${id}: ${text}`);

/** The pack's objects, deltas applied and each checked; throws PackError as index-pack would fail. */
export async function unpackObjects(entries: readonly PackEntry[], loadBases: BaseLoader): Promise<ReceivedObject[]> {
  const resolved = new Map<number, { type: ObjectType; body: Uint8Array; oid: string }>();
  const byOid = new Map<string, { type: ObjectType; body: Uint8Array }>();
  const ofsChildren = new Map<number, PackEntry[]>();
  const refChildren = new Map<string, PackEntry[]>();
  const roots: PackEntry[] = [];
  for (const e of entries) {
    if (e.type === OBJ_OFS_DELTA) ofsChildren.set(e.baseOffset!, [...(ofsChildren.get(e.baseOffset!) ?? []), e]);
    else if (e.type === OBJ_REF_DELTA) refChildren.set(e.baseOid!, [...(refChildren.get(e.baseOid!) ?? []), e]);
    else roots.push(e);
  }

  // Each resolved object resolves the deltas on it, depth first with an explicit stack (chains run deep).
  const resolveFrom = async (start: { type: ObjectType; body: Uint8Array; oid: string; offset: number | null }) => {
    const stack = [start];
    while (stack.length) {
      const base = stack.pop()!;
      const children = [...(base.offset === null ? [] : (ofsChildren.get(base.offset) ?? [])), ...(refChildren.get(base.oid) ?? [])];
      refChildren.delete(base.oid);
      for (const child of children) {
        let body: Uint8Array;
        try {
          body = applyDelta(base.body, child.data);
        } catch (error) {
          if (error instanceof DeltaError) throw new PackError('index-pack abnormal exit', `${error.message} (delta at offset ${child.offset})`);
          throw error;
        }
        const oid = await hashObject(base.type, body);
        const object = { type: base.type, body, oid };
        resolved.set(child.offset, object);
        if (!byOid.has(oid)) byOid.set(oid, object);
        stack.push({ ...object, offset: child.offset });
      }
    }
  };

  for (const e of roots) {
    const type = TYPE_NAMES[e.type]!;
    const oid = await hashObject(type, e.data);
    const object = { type, body: e.data, oid };
    resolved.set(e.offset, object);
    if (!byOid.has(oid)) byOid.set(oid, object);
  }
  for (const e of roots) await resolveFrom({ ...resolved.get(e.offset)!, offset: e.offset });
  // What is left hangs on objects outside the pack: the thin pack's bases, among the project's own objects.
  if (refChildren.size) {
    const bases = await loadBases([...refChildren.keys()]);
    for (const [oid, base] of bases) {
      const type = TYPE_NAMES[base.type];
      if (type && refChildren.has(oid)) await resolveFrom({ type, body: base.data, oid, offset: null });
    }
  }
  const unresolved = entries.length - resolved.size;
  if (unresolved) throw new PackError('index-pack abnormal exit', `pack has ${unresolved} unresolved delta${unresolved === 1 ? '' : 's'}`);

  const objects: ReceivedObject[] = [];
  for (const [oid, { type, body }] of byOid) objects.push({ oid, type, body, links: checkObject(oid, type, body) });
  return objects;
}

/** fsck --strict's checks of one object (the ones GitLab's receive.fsckObjects makes); its links when it passes. */
function checkObject(oid: string, type: ObjectType, body: Uint8Array): string[] {
  try {
    if (type === 'commit') {
      const commit = decodeCommit(body);
      return [commit.tree, ...commit.parents];
    }
    if (type === 'tag') return [decodeTag(body).object];
    if (type === 'tree') {
      const entries = decodeTree(body);
      checkTreeEntries(oid, entries);
      return entries.filter((e) => e.mode !== GITLINK).map((e) => e.oid);
    }
    return [];
  } catch (error) {
    if (error instanceof PackError) throw error;
    throw fsckError(oid, type === 'tree' ? 'badTree' : type === 'tag' ? 'badTagObject' : 'badCommit', error instanceof Error ? error.message : String(error));
  }
}

const MODES = new Set(['100644', '100755', '120000', '40000', '160000']);

/** fsck_tree: known modes, names fsck accepts, git's order (a directory sorts as `name/`), no name twice. */
function checkTreeEntries(oid: string, entries: readonly TreeEntry[]) {
  let previous: TreeEntry | undefined;
  for (const e of entries) {
    if (!MODES.has(e.mode)) throw fsckError(oid, e.mode.startsWith('0') ? 'zeroPaddedFilemode' : 'badFilemode', `contains bad file modes`);
    const problem = checkEntryName(e.name, e.mode);
    if (problem) throw fsckError(oid, problem, `contains a name git refuses`);
    if (previous) {
      const order = compareEntries(previous, e);
      if (order === 0 || sameName(previous, e)) throw fsckError(oid, 'duplicateEntries', 'contains duplicate file entries');
      if (order > 0) throw fsckError(oid, 'treeNotSorted', 'not properly sorted');
    }
    previous = e;
  }
}

const sameName = (a: TreeEntry, b: TreeEntry) => a.name.length === b.name.length && a.name.every((c, i) => c === b.name[i]);

/** git's base_name_compare: names byte by byte, a tree's name followed by `/`. */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const length = Math.min(a.name.length, b.name.length);
  for (let i = 0; i < length; i++) if (a.name[i] !== b.name[i]) return a.name[i]! - b.name[i]!;
  const next = (e: TreeEntry, at: number) => (at < e.name.length ? e.name[at]! : e.mode === '40000' ? 0x2f : 0);
  return next(a, length) - next(b, length);
}

/**
 * For each tip, whether its new history is whole: walking the received objects from it, every link leaving the
 * pack must be an object the project may read (`readable`); a tip outside the pack must be readable itself.
 */
export function completeTips(objects: readonly ReceivedObject[], tips: readonly string[], readable: ReadonlySet<string>): Set<string> {
  const byOid = new Map(objects.map((o) => [o.oid, o]));
  const complete = new Set<string>();
  for (const tip of tips) {
    const seen = new Set<string>();
    const stack = [tip];
    let whole = true;
    while (stack.length && whole) {
      const oid = stack.pop()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      const object = byOid.get(oid);
      if (!object) {
        whole = readable.has(oid);
        continue;
      }
      stack.push(...object.links);
    }
    if (whole) complete.add(tip);
  }
  return complete;
}

/** The ids the received objects point at outside themselves (what must already be readable). */
export function outsideLinks(objects: readonly ReceivedObject[]): string[] {
  const inside = new Set(objects.map((o) => o.oid));
  const outside = new Set<string>();
  for (const o of objects) for (const link of o.links) if (!inside.has(link)) outside.add(link);
  return [...outside];
}
