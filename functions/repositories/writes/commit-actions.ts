// The actions of a commit (create, delete, move, update, chmod) applied to the directories they touch, as Gitaly's
// UserCommitFiles applies them, in order, each seeing the ones before it. Pure: it takes the entries of the touched
// directories (db/queries/repositories/dirs.ts reads them in one statement) and returns the new blobs and trees and
// the new root tree's id; untouched subtrees keep their ids, so a commit writes only what it changed.
//
// Names are handled as bytes (a stored name need not be UTF-8): map keys are "binary strings", one char per byte.
import type { DirEntryRow } from '../../../db/queries/repositories/dirs.ts';
import { hashObject } from '../git/oid.ts';
import { encodeTree, entryType, type TreeEntry } from '../git/tree.ts';
import { verifyPath } from '../git/verify-path.ts';
import type { GitObject } from '../store/store.ts';

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

/** A name as a map key: a "binary string", one char per byte (chunked: a spread of a long name would overflow). */
function key(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}
const bytesOf = (k: string) => Uint8Array.from(k, (c) => c.charCodeAt(0));
const REGULAR = '100644';
const EXECUTABLE = '100755';
const TREE = '40000';

/** Path components joined by `/`, as one byte string. */
function joinPath(path: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(path.reduce((n, p) => n + p.length + 1, -1));
  let at = 0;
  for (const [i, p] of path.entries()) {
    if (i) out[at++] = 0x2f;
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The path as GitLab shows it in a message (its bytes read as UTF-8, a leading byte order mark kept). */
const shown = (path: readonly Uint8Array[]) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(joinPath(path));

/**
 * libgit2's refusal when Gitaly adds a path git would not check out (git/verify-path.ts: `.git` in any spelling, a
 * `.gitmodules` symlink...): Rugged::IndexError "invalid path: '<path>'", which GitLab answers with 400.
 */
export function checkPath(path: readonly Uint8Array[], mode: string): void {
  if (!verifyPath(joinPath(path), mode)) throw new ActionError(`invalid path: '${shown(path)}'`);
}

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

/**
 * Every directory above each path, and each path itself (it may be one), once each, as views of the joined path (a
 * trie of the components finds the ones already listed): linear in the paths' components.
 */
export function dirsAlong(paths: readonly Uint8Array[][]): Uint8Array[] {
  type Trie = Map<string, Trie>;
  const seen: Trie = new Map();
  const out: Uint8Array[] = [];
  for (const path of paths) {
    const joined = joinPath(path);
    let node = seen;
    let end = 0;
    for (const [i, segment] of path.entries()) {
      end += (i ? 1 : 0) + segment.length;
      const name = key(segment);
      let next = node.get(name);
      if (!next) {
        next = new Map();
        node.set(name, next);
        out.push(joined.subarray(0, end));
      }
      node = next;
    }
  }
  return out;
}

type Entry = { mode: string; oid: string };

/**
 * A directory of the tree being edited: its entries, the subdirectories loaded or created below it, and whether it
 * must be written out (set on it and every directory above it when an entry changes).
 */
interface DirNode {
  entries: Map<string, Entry>;
  subdirs: Map<string, DirNode>;
  parent: DirNode | undefined;
  name: string;
  dirty: boolean;
}

const dirNode = (parent: DirNode | undefined, name: string): DirNode => {
  const node: DirNode = { entries: new Map(), subdirs: new Map(), parent, name, dirty: false };
  parent?.subdirs.set(name, node);
  return node;
};

export interface AppliedActions {
  treeOid: string;
  /** New blobs and trees (objects already stored are included only when rebuilt). */
  objects: GitObject[];
}

/**
 * A tree being edited: the touched directories' entries, changed in place, then rebuilt by `build`. Every path an
 * edit reaches is walked from the root by component and each change marks its directories dirty once, so a commit
 * costs O(n log n) in the components it touches (the sort of each written tree), never the square of them.
 */
export function treeEditor(current: readonly DirEntryRow[]) {
  const root = dirNode(undefined, '');
  const byDir = new Map<string, DirNode>([['', root]]);
  /** The node of a stored directory (by its path from the root), with the ones above it. */
  const loaded = (dir: string): DirNode => {
    const found = byDir.get(dir);
    if (found) return found;
    const slash = dir.lastIndexOf('/');
    const node = dirNode(loaded(slash === -1 ? '' : dir.slice(0, slash)), dir.slice(slash + 1));
    byDir.set(dir, node);
    return node;
  };
  // `loaded` recurses once per directory above a new one: at most a path's depth (commit-limits.ts caps it).
  for (const e of current) loaded(key(e.dir)).entries.set(key(e.name), { mode: e.mode, oid: e.oid });

  const markDirty = (node: DirNode | undefined) => {
    for (let n = node; n && !n.dirty; n = n.parent) n.dirty = true;
  };

  /** The directory holding `path`, created (with its parents) when `create` is set; undefined if missing. */
  const parentOf = (path: Uint8Array[], create: boolean): DirNode | undefined => {
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      const name = key(path[i]!);
      const entry = node.entries.get(name);
      if (entry && entryType(entry.mode) !== 'tree') {
        if (create) throw new ActionError(FILE_EXISTS);
        return undefined;
      }
      if (!entry) {
        if (!create) return undefined;
        node.entries.set(name, { mode: TREE, oid: '' });
        markDirty(node);
      }
      node = node.subdirs.get(name) ?? dirNode(node, name);
    }
    return node;
  };
  const last = (path: Uint8Array[]) => key(path[path.length - 1]!);
  /** The file (blob, symlink or submodule) at `path`; undefined if none; ActionError if a directory is there. */
  const existing = (path: Uint8Array[]) => {
    const entry = parentOf(path, false)?.entries.get(last(path));
    if (!entry) return undefined;
    if (entryType(entry.mode) === 'tree') throw new ActionError(DIRECTORY_EXISTS);
    return entry;
  };
  const put = (path: Uint8Array[], value: Entry) => {
    checkPath(path, value.mode);
    const dir = parentOf(path, true)!;
    const name = last(path);
    const there = dir.entries.get(name);
    if (there && entryType(there.mode) === 'tree') throw new ActionError(DIRECTORY_EXISTS);
    dir.entries.set(name, value);
    markDirty(dir);
  };
  const remove = (path: Uint8Array[]) => {
    const dir = parentOf(path, false)!;
    dir.entries.delete(last(path));
    markDirty(dir);
  };
  const build = () => {
    root.dirty = true; // the root is always written out: its id is the commit's tree
    return rebuild(root);
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
 * Encodes the dirty directories, each after the ones below it, each giving its new id to its parent; a directory
 * left empty disappears from its parent, as git stores no empty tree below the root. Iterative: a path may be
 * thousands of directories deep.
 */
async function rebuild(root: DirNode): Promise<{ treeOid: string; trees: GitObject[] }> {
  // Pre-order (a parent before its children), then walked backwards: every child before its parent.
  const order: DirNode[] = [];
  for (const stack = [root]; stack.length;) {
    const node = stack.pop()!;
    order.push(node);
    for (const child of node.subdirs.values()) if (child.dirty) stack.push(child);
  }
  const trees: GitObject[] = [];
  let rootOid = '';
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    node.dirty = false;
    const entries: TreeEntry[] = [...node.entries].map(([name, e]) => ({ name: bytesOf(name), mode: e.mode, oid: e.oid }));
    const body = encodeTree(entries);
    const oid = await hashObject('tree', body);
    const parent = node.parent;
    if (!parent) {
      rootOid = oid;
      trees.push({ type: 'tree', body });
    } else if (entries.length) {
      trees.push({ type: 'tree', body });
      parent.entries.set(node.name, { mode: TREE, oid });
    } else parent.entries.delete(node.name);
  }
  return { treeOid: rootOid, trees };
}
