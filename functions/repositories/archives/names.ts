// What GitLab 13.6 names an archive (Gitlab::Git::Repository#archive_prefix and #archive_file_path, and Workhorse's
// headers): pure functions of the request and the resolved commit.

/** The extensions the route accepts (Gitlab::PathRegex.archive_formats_regex); none means tar.gz. */
export const ARCHIVE_EXTENSIONS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'] as const;

export type ArchiveFormat = 'tar' | 'tar.gz' | 'tar.bz2' | 'zip';

/** archive_file_path's mapping of the requested extension to the archive's format (and file extension). */
export function archiveFormat(extension: string | undefined): ArchiveFormat {
  switch (extension) {
    case 'tar.bz2':
    case 'tbz':
    case 'tbz2':
    case 'tb2':
    case 'bz2':
      return 'tar.bz2';
    case 'tar':
    case 'zip':
      return extension;
    default:
      return 'tar.gz';
  }
}

/**
 * The archive's name without extension, which is also its top directory: `<project path>-<ref>-<commit id>`, the
 * ref as requested (the default branch's name when none was) with `/` as `-`, and `-<path>` (slashes as dashes)
 * when a path was given, even an empty one.
 */
export function archivePrefix(a: { projectPath: string; ref: string; commitOid: string; path: string | undefined }): string {
  const segments = [a.projectPath, a.ref.replaceAll('/', '-'), a.commitOid];
  if (a.path !== undefined) segments.push(a.path.replaceAll('/', '-'));
  return segments.join('-');
}

/**
 * Workhorse's headers: `attachment; filename="<name>"` as raw bytes (Go writes the UTF-8 bytes of the name as they
 * are: a header value here is a string of Latin-1 code units, one per byte), application/zip for zip archives.
 */
export function archiveHeaders(filename: string, format: ArchiveFormat): Record<string, string> {
  const raw = Array.from(new TextEncoder().encode(filename), (b) => String.fromCharCode(b)).join('');
  return {
    'Content-Disposition': `attachment; filename="${raw}"`,
    'Content-Type': format === 'zip' ? 'application/zip' : 'application/octet-stream',
    'Content-Transfer-Encoding': 'binary',
  };
}
