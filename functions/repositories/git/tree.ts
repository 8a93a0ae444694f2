// Tree objects: entries `<mode> <name>\0<20-byte id>`, sorted the way git sorts them. Modes are kept as the digits
// stored (old repositories hold modes such as 100664, and git fsck only warns) and names as raw bytes (a file name
// need not be UTF-8), so that decoding then encoding a tree git wrote gives back its exact bytes.
import { bytesToOid, isOid, oidToBytes, type ObjectType } from './oid.ts';
import { concatBytes } from './text.ts';

export interface TreeEntry {
  /** Octal digits exactly as stored: '100644', '100755', '120000', '40000', '160000', or a legacy mode. */
  mode: string;
  /** The name's raw bytes: one path component, never containing '/' or NUL. */
  name: Uint8Array;
  oid: string;
}

// The file-type bits of a mode (S_IFMT) and the types git gives them.
const TYPE_BITS = 0o170000;
const DIRECTORY = 0o040000;
const SYMLINK = 0o120000;
const REGULAR = 0o100000;
const GITLINK = 0o160000;
const MODE = /^[0-7]+$/;

const typeBits = (mode: string) => parseInt(mode, 8) & TYPE_BITS;

/** What an entry points at: a blob (file or symlink), a tree (directory) or a commit (submodule). */
export function entryType(mode: string): Extract<ObjectType, 'blob' | 'tree' | 'commit'> {
  const bits = typeBits(mode);
  return bits === DIRECTORY ? 'tree' : bits === GITLINK ? 'commit' : 'blob';
}

/** A regular file with the owner's execute bit, as git checks it out executable (legacy 100775 included). */
export function isExecutable(mode: string): boolean {
  return typeBits(mode) === REGULAR && (parseInt(mode, 8) & 0o100) !== 0;
}

export function isSymlink(mode: string): boolean {
  return typeBits(mode) === SYMLINK;
}

const SLASH = 0x2f;

/**
 * git's order (base_name_compare): bytewise, a directory comparing as if its name ended with '/'; so `a.b` < `a/`
 * (tree) < `a0`, while a file `a` sorts before `a.b`.
 */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const len = Math.min(a.name.length, b.name.length);
  for (let i = 0; i < len; i++) {
    if (a.name[i] !== b.name[i]) return a.name[i]! - b.name[i]!;
  }
  const next = (e: TreeEntry) => e.name[len] ?? (entryType(e.mode) === 'tree' ? SLASH : 0);
  return next(a) - next(b);
}

function checkEntry(entry: TreeEntry): void {
  if (!MODE.test(entry.mode)) throw new Error(`invalid tree entry mode ${JSON.stringify(entry.mode)}`);
  if (!isOid(entry.oid)) throw new Error(`invalid tree entry id ${JSON.stringify(entry.oid)}`);
  if (entry.name.length === 0 || entry.name.includes(SLASH) || entry.name.includes(0)) {
    throw new Error(`invalid tree entry name ${JSON.stringify(new TextDecoder().decode(entry.name))}`);
  }
}

/**
 * The tree's body: entries sorted as git sorts them. Two entries with one name are refused, even a file and a
 * directory (fsck calls either an error; the two need not sort side by side: `a`, `a.b`, `a/`).
 */
export function encodeTree(entries: readonly TreeEntry[]): Uint8Array {
  const names = new Set<string>();
  for (const entry of entries) {
    checkEntry(entry);
    const key = entry.name.join(',');
    if (names.has(key)) throw new Error(`duplicate tree entry ${JSON.stringify(new TextDecoder().decode(entry.name))}`);
    names.add(key);
  }
  const encoder = new TextEncoder();
  return concatBytes(
    [...entries].sort(compareEntries).map((entry) => {
      const mode = encoder.encode(`${entry.mode} `);
      const part = new Uint8Array(mode.length + entry.name.length + 21);
      part.set(mode);
      part.set(entry.name, mode.length);
      part.set(oidToBytes(entry.oid), mode.length + entry.name.length + 1);
      return part;
    }),
  );
}

/**
 * The entries in stored order (git's order, for any tree git wrote). Names are plain Uint8Array copies, never views
 * of `body` (a Buffer's slice would be one, keeping the whole tree alive).
 */
export function decodeTree(body: Uint8Array): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const decoder = new TextDecoder();
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    const nul = space < 0 ? -1 : body.indexOf(0, space + 1);
    if (nul < 0 || nul + 21 > body.length) throw new Error(`malformed tree entry at byte ${offset}`);
    const mode = decoder.decode(body.subarray(offset, space));
    if (!MODE.test(mode)) throw new Error(`malformed tree entry mode at byte ${offset}`);
    entries.push({ mode, name: new Uint8Array(body.subarray(space + 1, nul)), oid: bytesToOid(body, nul + 1) });
    offset = nul + 21;
  }
  return entries;
}
