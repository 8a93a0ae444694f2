// The actions of a commit (create, delete, move, update, chmod) applied to the directories they touch, as Gitaly's
// UserCommitFiles applies them, in order, each seeing the ones before it. Pure: it takes the entries of the touched
// directories (db/queries/repository-dirs.ts reads them in one statement) and returns the new blobs and trees and
// the new root tree's id; untouched subtrees keep their ids, so a commit writes only what it changed.
//
// Names are handled as bytes (a stored name need not be UTF-8): map keys are "binary strings", one char per byte.
import type { DirEntryRow } from '../../db/queries/repository-dirs.ts';
import { hashObject } from './git/oid.ts';
import { encodeTree, entryType, type TreeEntry } from './git/tree.ts';
import type { GitObject } from './store.ts';

export interface FileAction {
  action: 'create' | 'delete' | 'move' | 'update' | 'chmod';
  /** Path components as bytes (already split and checked by `splitPath`). */
  path: Uint8Array[];
  previousPath?: Uint8Array[] | undefined;
  /** The new content (create, update; move when given). */
  content?: Uint8Array | undefined;
  executeFilemode?: boolean | undefined;
}

/** A refused action: the message is Gitaly's (IndexError), which GitLab answers with 400 `{"message": ...}`. */
export class ActionError extends Error {
  override name = 'ActionError';
}

// Gitaly's index errors (internal/git2go/commit.go and the Ruby UserCommitFiles before it), as GitLab shows them.
export const FILE_EXISTS = 'A file with this name already exists';
export const FILE_MISSING = "A file with this name doesn't exist";
export const DIRECTORY_EXISTS = 'A directory with this name already exists';
export const TRAVERSAL = 'Path cannot include directory traversal';
export const EMPTY_PATH = 'You must provide a file path';

const key = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const bytesOf = (k: string) => Uint8Array.from(k, (c) => c.charCodeAt(0));
const REGULAR = '100644';
const EXECUTABLE = '100755';

/**
 * A path as the API gives it, split into components as Gitaly cleans it: empty components dropped (leading,
 * trailing and doubled slashes), `.` and `..` refused.
 */
export function splitPath(path: string): Uint8Array[] {
  const parts = path.split('/').filter((p) => p !== '');
  if (!parts.length) throw new ActionError(EMPTY_PATH);
  if (parts.some((p) => p === '..' || p === '.')) throw new ActionError(TRAVERSAL);
  const encoder = new TextEncoder();
  return parts.map((p) => encoder.encode(p));
}

/** The directories whose entries the actions need: every directory above each path (and each path, which may be one). */
export const touchedDirs = (actions: readonly FileAction[]) => dirsAlong(actions.flatMap((a) => (a.previousPath ? [a.path, a.previousPath] : [a.path])));

/** Every directory above each path, and each path itself (it may be one), once each. */
export function dirsAlong(paths: readonly Uint8Array[][]): Uint8Array[] {
  const seen = new Map<string, Uint8Array>();
  for (const path of paths) {
    for (let depth = 1; depth <= path.length; depth++) {
      const k = path.slice(0, depth).map(key).join('/');
      if (!seen.has(k)) seen.set(k, bytesOf(k));
    }
  }
  return [...seen.values()];
}

type Dir = Map<string, { mode: string; oid: string }>;

export interface AppliedActions {
  treeOid: string;
  /** New blobs and trees (objects already stored are included only when rebuilt). */
  objects: GitObject[];
}

/** A tree being edited: the touched directories' entries, changed in place, then rebuilt by `build`. */
export function treeEditor(current: readonly DirEntryRow[]) {
  const dirs = new Map<string, Dir>([['', new Map()]]);
  for (const e of current) {
    const d = key(e.dir);
    if (!dirs.has(d)) dirs.set(d, new Map());
    dirs.get(d)!.set(key(e.name), { mode: e.mode, oid: e.oid });
  }
  const dirty = new Set<string>();

  /** The directory holding `path`, created (with its parents) when `create` is set; undefined if missing. */
  const parentOf = (path: Uint8Array[], create: boolean): Dir | undefined => {
    let dirKey = '';
    for (const segment of path.slice(0, -1)) {
      const name = key(segment);
      const above = dirs.get(dirKey)!;
      const next = dirKey ? `${dirKey}/${name}` : name;
      const entry = above.get(name);
      if (entry && entryType(entry.mode) !== 'tree') {
        if (create) throw new ActionError(FILE_EXISTS);
        return undefined;
      }
      if (!entry) {
        if (!create) return undefined;
        above.set(name, { mode: '40000', oid: '' });
        dirty.add(dirKey);
      }
      if (!dirs.has(next)) dirs.set(next, new Map());
      dirKey = next;
    }
    return dirs.get(dirKey);
  };
  const dirKeyOf = (path: Uint8Array[]) => path.slice(0, -1).map(key).join('/');
  /** The file (blob, symlink or submodule) at `path`; undefined if none; ActionError if a directory is there. */
  const existing = (path: Uint8Array[]) => {
    const entry = parentOf(path, false)?.get(key(path[path.length - 1]!));
    if (!entry) return undefined;
    if (entryType(entry.mode) === 'tree') throw new ActionError(DIRECTORY_EXISTS);
    return entry;
  };
  const put = (path: Uint8Array[], value: { mode: string; oid: string }) => {
    const dir = parentOf(path, true)!;
    const name = key(path[path.length - 1]!);
    const there = dir.get(name);
    if (there && entryType(there.mode) === 'tree') throw new ActionError(DIRECTORY_EXISTS);
    dir.set(name, value);
    dirty.add(dirKeyOf(path));
  };
  const remove = (path: Uint8Array[]) => {
    parentOf(path, false)!.delete(key(path[path.length - 1]!));
    dirty.add(dirKeyOf(path));
  };
  const build = () => {
    dirty.add(''); // the root is always written out: its id is the commit's tree
    return rebuild(dirs, dirty);
  };
  return { existing, put, remove, build };
}

export async function applyActions(current: readonly DirEntryRow[], actions: readonly FileAction[]): Promise<AppliedActions> {
  const { existing, put, remove, build } = treeEditor(current);
  const blobs: GitObject[] = [];
  const blobOid = async (content: Uint8Array) => {
    blobs.push({ type: 'blob', body: content });
    return hashObject('blob', content);
  };

  for (const a of actions) {
    switch (a.action) {
      case 'create':
        if (existing(a.path)) throw new ActionError(FILE_EXISTS);
        put(a.path, { mode: REGULAR, oid: await blobOid(a.content ?? new Uint8Array()) });
        break;
      case 'update': {
        const entry = existing(a.path);
        if (!entry) throw new ActionError(FILE_MISSING);
        put(a.path, { mode: entry.mode, oid: await blobOid(a.content ?? new Uint8Array()) });
        break;
      }
      case 'delete':
        if (!existing(a.path)) throw new ActionError(FILE_MISSING);
        remove(a.path);
        break;
      case 'chmod': {
        const entry = existing(a.path);
        if (!entry) throw new ActionError(FILE_MISSING);
        // Only regular files have an execute bit; a symlink or submodule keeps its mode.
        const mode = entry.mode.startsWith('100') ? (a.executeFilemode ? EXECUTABLE : REGULAR) : entry.mode;
        put(a.path, { mode, oid: entry.oid });
        break;
      }
      case 'move': {
        const from = existing(a.previousPath!);
        if (!from) throw new ActionError(FILE_MISSING);
        if (existing(a.path)) throw new ActionError(FILE_EXISTS);
        remove(a.previousPath!);
        put(a.path, { mode: from.mode, oid: a.content === undefined ? from.oid : await blobOid(a.content) });
        break;
      }
    }
  }
  const built = await build();
  return { treeOid: built.treeOid, objects: [...blobs, ...built.trees] };
}

/**
 * Encodes the dirty directories deepest first, each giving its new id to its parent (which becomes dirty too); a
 * directory left empty disappears from its parent, as git stores no empty tree below the root.
 */
async function rebuild(dirs: Map<string, Dir>, dirtyIn: Set<string>): Promise<{ treeOid: string; trees: GitObject[] }> {
  const dirty = new Set(dirtyIn);
  const trees: GitObject[] = [];
  const depth = (k: string) => (k === '' ? 0 : k.split('/').length);
  let rootOid = '';
  while (dirty.size) {
    const deepest = [...dirty].sort((a, b) => depth(b) - depth(a))[0]!;
    dirty.delete(deepest);
    const dir = dirs.get(deepest) ?? new Map();
    const entries: TreeEntry[] = [...dir].map(([name, e]) => ({ name: bytesOf(name), mode: e.mode, oid: e.oid }));
    // A directory created by an action whose subdirectory is still pending has an empty id: handled by depth order.
    const body = encodeTree(entries);
    const oid = await hashObject('tree', body);
    if (deepest === '') {
      rootOid = oid;
      trees.push({ type: 'tree', body });
      break;
    }
    const slash = deepest.lastIndexOf('/');
    const parentKey = slash === -1 ? '' : deepest.slice(0, slash);
    const name = deepest.slice(slash + 1);
    const parent = dirs.get(parentKey)!;
    if (entries.length) {
      trees.push({ type: 'tree', body });
      parent.set(name, { mode: '40000', oid });
    } else parent.delete(name);
    dirty.add(parentKey);
  }
  return { treeOid: rootOid, trees };
}
