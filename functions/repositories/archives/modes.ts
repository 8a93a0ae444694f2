// How a tree entry's mode becomes an archive entry's, as git archive decides it (archive.c, archive-tar.c,
// archive-zip.c): modes canonicalised as git's tree walk does (any regular mode is 644 or 755), tar permissions
// with git's default tar.umask (002), submodules written as empty directories.

/** git archive's default `tar.umask`. */
const TAR_UMASK = 0o002;

export interface ArchiveMode {
  kind: 'file' | 'symlink' | 'directory';
  /** The full mode a tar header carries (its permission bits are written). */
  tar: number;
  /** The zip entry's external attributes and "version made by" system (0 MS-DOS, 3 Unix), as git writes them. */
  zipAttrs: number;
  zipOs: number;
}

/** The archive mode of a tree entry's stored mode ('100644', '100755', '120000', '40000', '160000', legacy ones). */
export function archiveMode(stored: string): ArchiveMode {
  const mode = parseInt(stored, 8);
  switch (mode & 0o170000) {
    case 0o040000:
    case 0o160000:
      // A submodule's commit is not in this repository: git archive writes its path as an empty directory.
      return { kind: 'directory', tar: (0o040000 | 0o777) & ~TAR_UMASK, zipAttrs: 0x10, zipOs: 0 };
    case 0o120000:
      return { kind: 'symlink', tar: 0o120777, zipAttrs: 0o120777 * 0x10000, zipOs: 3 };
    default: {
      const executable = (mode & 0o100) !== 0;
      const canonical = executable ? 0o100755 : 0o100644;
      return {
        kind: 'file',
        tar: (canonical | (executable ? 0o777 : 0o666)) & ~TAR_UMASK,
        // A plain file carries no Unix mode (an unzip gives it the user's default); an executable one its own.
        zipAttrs: executable ? canonical * 0x10000 : 0,
        zipOs: executable ? 3 : 0,
      };
    }
  }
}
