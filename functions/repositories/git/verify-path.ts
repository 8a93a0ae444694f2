// The paths and tree entry names git refuses, ported from git (read-cache.c verify_path and verify_dotfile, path.c
// is_ntfs_dotgit and is_ntfs_dot_generic, utf8.c is_hfs_dot_generic, fsck.c fsck_tree), with core.protectHFS and
// core.protectNTFS both on, as a server must assume its trees are checked out anywhere: `.git` in any case and in
// its HFS+ (ignorable code points) and NTFS (`.git.`, `.git `, `git~1`, `.git::$INDEX_ALLOCATION`) spellings, `.`
// and `..`, empty components, `.gitmodules` as a symbolic link. A tree holding one of these runs code on whoever
// checks it out (a `.git/config` with core.fsmonitor, a `.git/hooks/*`), so every door that writes a tree (the
// commits and files APIs, cherry-pick, revert, merges, and pushes) goes through here.
//
// Beyond git: NUL and newline are refused in names (NUL cannot be stored in a tree; a newline splits the lines of
// every line-based tool and of .gitmodules). Pure and over bytes: a stored name need not be UTF-8.

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const DOT = 0x2e;

const isDirSep = (c: number | undefined) => c === SLASH;
/** is_xplatform_dir_sep: what any platform takes as a separator. */
const isXplatformDirSep = (c: number | undefined) => c === SLASH || c === BACKSLASH;
const lower = (c: number | undefined) => (c !== undefined && c >= 0x41 && c <= 0x5a ? c | 0x20 : c);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const GIT = ascii('git');
const GITMODULES = ascii('gitmodules');
const MODULES = ascii('modules');

/** fsck's LARGE_PATHNAME: a tree entry name longer than this is refused (fsck.largePathname, git 2.42). */
export const MAX_NAME_BYTES = 4096;

/** The code points HFS+ ignores in names (utf8.c next_hfs_char). */
const HFS_IGNORED = new Set([0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff]);

/**
 * The next UTF-8 character at `at`, skipping the ones HFS+ ignores: [code point, next offset]; 0 at the end and, as
 * in git, for malformed UTF-8 (so `.git` followed by a malformed byte counts as `.git`).
 */
function nextHfsChar(s: Uint8Array, at: number): [number, number] {
  for (;;) {
    if (at >= s.length) return [0, at];
    const b = s[at]!;
    let cp: number;
    let len: number;
    if (b < 0x80) [cp, len] = [b, 1];
    else if ((b & 0xe0) === 0xc0) [cp, len] = [b & 0x1f, 2];
    else if ((b & 0xf0) === 0xe0) [cp, len] = [b & 0x0f, 3];
    else if ((b & 0xf8) === 0xf0) [cp, len] = [b & 0x07, 4];
    else return [0, at];
    if (at + len > s.length) return [0, at];
    for (let i = 1; i < len; i++) {
      const c = s[at + i]!;
      if ((c & 0xc0) !== 0x80) return [0, at];
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms and surrogates are malformed (pick_one_utf8_char refuses them too).
    if ((len === 2 && cp < 0x80) || (len === 3 && cp < 0x800) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
      return [0, at];
    at += len;
    if (!HFS_IGNORED.has(cp)) return [cp, at];
  }
}

/** is_hfs_dot_generic: `.<needle>` as HFS+ would read it (case-insensitive, ignorable code points skipped). */
function isHfsDot(s: Uint8Array, start: number, needle: readonly number[]): boolean {
  let [c, at] = nextHfsChar(s, start);
  if (c !== DOT) return false;
  for (const n of needle) {
    [c, at] = nextHfsChar(s, at);
    if (c > 127 || lower(c) !== n) return false;
  }
  [c] = nextHfsChar(s, at);
  return c === 0 || isDirSep(c);
}

/**
 * The rest of a name as NTFS reads it: only spaces and periods, then its end or `:` (a stream). is_ntfs_dotgit also
 * ends a name at a separator; is_ntfs_dot_generic does not (`separators` false).
 */
function ntfsTrailer(s: Uint8Array, i: number, separators = true): boolean {
  for (; ; i++) {
    const c = s[i];
    if (c === undefined || (separators && isXplatformDirSep(c)) || c === 0x3a) return true;
    if (c !== DOT && c !== 0x20) return false;
  }
}

/** is_ntfs_dotgit: `.git` or its short name `git~1`, with NTFS's trailing spaces, periods and stream suffix. */
function isNtfsDotgit(s: Uint8Array, start: number): boolean {
  const at = (i: number) => lower(s[start + i]);
  if (s[start] === DOT) {
    if (at(1) !== 0x67 || at(2) !== 0x69 || at(3) !== 0x74) return false;
    return ntfsTrailer(s, start + 4);
  }
  if (at(0) === 0x67 && at(1) === 0x69 && at(2) === 0x74 && s[start + 3] === 0x7e && s[start + 4] === 0x31) return ntfsTrailer(s, start + 5);
  return false;
}

/** is_ntfs_dot_generic: `.<name>`, its `<6 chars>~1..4` short name, or the fall-back short name `<prefix>~<digits>`. */
function isNtfsDot(s: Uint8Array, start: number, n: readonly number[], shortPrefix: string): boolean {
  const at = (i: number) => s[start + i];
  if (at(0) === DOT && n.every((c, i) => lower(at(i + 1)) === c)) return ntfsTrailer(s, start + 1 + n.length, false);
  if (n.slice(0, 6).every((c, i) => lower(at(i)) === c) && at(6) === 0x7e && at(7)! >= 0x31 && at(7)! <= 0x34) return ntfsTrailer(s, start + 8, false);
  const p = shortPrefix;
  let sawTilde = false;
  for (let i = 0; i < 8; i++) {
    const c = at(i);
    // git reads a C string: the component's end (a separator or the path's end) stops it like a NUL would.
    if (c === undefined || isDirSep(c)) return false;
    if (sawTilde) {
      if (c < 0x30 || c > 0x39) return false;
    } else if (c === 0x7e) {
      const d = at(++i);
      if (d === undefined || d < 0x31 || d > 0x39) return false;
      sawTilde = true;
    } else if (i >= 6 || c & 0x80 || lower(c) !== p.charCodeAt(i)) return false;
  }
  return ntfsTrailer(s, start + 8, false);
}

const isDotgit = (s: Uint8Array, start = 0) => isHfsDot(s, start, GIT) || isNtfsDotgit(s, start);
const isDotgitmodules = (s: Uint8Array, start = 0) => isHfsDot(s, start, GITMODULES) || isNtfsDot(s, start, GITMODULES, 'gi7eba');
const isSymlinkMode = (mode: string) => mode.replace(/^0+/, '') === '120000';

/** verify_dotfile: the component after a leading `.` (at `at`): not `.`, `..`, `.git`, nor a `.gitmodules` symlink. */
function verifyDotfile(s: Uint8Array, at: number, symlink: boolean): boolean {
  const c = s[at];
  if (c === undefined || isDirSep(c)) return false;
  if (lower(c) === 0x67) {
    if (lower(s[at + 1]) !== 0x69 || lower(s[at + 2]) !== 0x74) return true;
    if (s[at + 3] === undefined || isDirSep(s[at + 3])) return false;
    if (symlink) {
      if (MODULES.every((r, i) => lower(s[at + 3 + i]) === r)) {
        const end = s[at + 3 + MODULES.length];
        if (end === undefined || isDirSep(end)) return false;
      }
    }
  } else if (c === DOT) {
    if (s[at + 1] === undefined || isDirSep(s[at + 1])) return false;
  }
  return true;
}

/**
 * May a tree hold `path` (bytes, components separated by `/`) as an entry of `mode`? git's verify_path (protectHFS
 * and protectNTFS on), and fsck's rules for each component's name (checkEntryName): empty components, `.`, `..`,
 * `.git` in any spelling, also after a backslash, `.gitmodules` as a symlink, NUL and newline are refused.
 */
export function verifyPath(path: Uint8Array, mode: string): boolean {
  if (path.includes(0) || !gitVerifyPath(path, isSymlinkMode(mode))) return false;
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path[i] !== SLASH) continue;
    if (checkEntryName(path.subarray(start, i), i === path.length ? mode : '40000')) return false;
    start = i + 1;
  }
  return true;
}

/** read-cache.c verify_path_internal for a file (not a sparse directory), with protectHFS and protectNTFS. */
function gitVerifyPath(path: Uint8Array, symlink: boolean): boolean {
  let i = 0;
  // At the start of each component.
  for (;;) {
    if (isDotgit(path, i)) return false;
    if (symlink && isDotgitmodules(path, i)) return false;
    const c = path[i++];
    if (c === undefined || isDirSep(c)) return false; // an empty path or component
    if (c === DOT && !verifyDotfile(path, i, symlink)) return false;
    // The rest of the component (git looks after a backslash from the component's second byte on).
    for (;;) {
      const d = path[i++];
      if (d === undefined) return true;
      if (isDirSep(d)) break;
      if (d === BACKSLASH && (isNtfsDotgit(path, i) || (symlink && isNtfsDot(path, i, GITMODULES, 'gi7eba')))) return false;
    }
  }
}

/** fsck's message ids for a tree entry name (fsck.c fsck_tree), the ones `receive.fsckObjects` refuses. */
export type NameProblem = 'emptyName' | 'fullPathname' | 'hasDot' | 'hasDotdot' | 'hasDotgit' | 'largePathname' | 'gitmodulesSymlink' | 'badName';

/**
 * What fsck (with `--strict`, as GitLab's receive.fsckObjects) refuses in one tree entry, by name and mode; undefined
 * when it is fine. For the git transport, which receives trees rather than paths.
 */
export function checkEntryName(name: Uint8Array, mode: string): NameProblem | undefined {
  if (!name.length) return 'emptyName';
  if (name.includes(SLASH)) return 'fullPathname';
  if (name.length === 1 && name[0] === DOT) return 'hasDot';
  if (name.length === 2 && name[0] === DOT && name[1] === DOT) return 'hasDotdot';
  if (name.length > MAX_NAME_BYTES) return 'largePathname';
  const symlink = isSymlinkMode(mode);
  if (isDotgit(name)) return 'hasDotgit';
  if (symlink && isDotgitmodules(name)) return 'gitmodulesSymlink';
  for (let i = name.indexOf(BACKSLASH); i !== -1; i = name.indexOf(BACKSLASH, i + 1)) {
    if (isNtfsDotgit(name, i + 1)) return 'hasDotgit';
    if (symlink && isNtfsDot(name, i + 1, GITMODULES, 'gi7eba')) return 'gitmodulesSymlink';
  }
  if (name.includes(0x0a)) return 'badName';
  return undefined;
}
