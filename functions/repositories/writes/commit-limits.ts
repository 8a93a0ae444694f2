// What a single commit may carry, checked before anything is read or written (so a refused request stores nothing):
// the size of each file (MAX_FILE_SIZE, default 10 MB, as GitLab's default max push size per blob), the number of
// actions, the depth and length of a path, and the number of directories the actions reach. Content arrives as text
// or base64 and leaves as bytes.
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage } from '../../lib/errors.ts';

/** Default for MAX_FILE_SIZE (bytes). */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

/**
 * Actions per commit. GitLab 13.6 sets none, but every action is rows of one batch: a fixed cap keeps one request
 * from writing without bound.
 */
export const MAX_COMMIT_ACTIONS = 1000;

/**
 * Bytes of a path: Linux's PATH_MAX, beyond which git cannot check the file out ("File name too long"). It also keeps
 * a path within git's core.maxTreeDepth (2048 directories: git refuses to read a deeper tree).
 */
export const MAX_PATH_BYTES = 4096;

/**
 * The directories the actions of one commit reach: each is read (by its path from the root) and written when changed,
 * in the commit's one read and one batch. GitLab 13.6 sets no limit; these keep a request's read, tree building and
 * write bounded (a deep path sends every directory above it: the bytes grow with the square of its depth).
 */
export const MAX_COMMIT_DIRECTORIES = 10_000;
export const MAX_COMMIT_DIRECTORY_BYTES = 1024 * 1024;

export const maxFileSize = (ctx: RequestContext) => ctx.config.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`;

export function checkActionCount(count: number): void {
  if (count > MAX_COMMIT_ACTIONS) throw invalidMessage(`Too many actions: a commit may have at most ${MAX_COMMIT_ACTIONS} actions (${count} given)`);
}

/** A path within MAX_PATH_BYTES (its components, as bytes). */
export function checkPathSize(components: readonly Uint8Array[]): void {
  const bytes = components.reduce((n, c) => n + c.length + 1, -1);
  if (bytes > MAX_PATH_BYTES) throw invalidMessage(`Path is too long: a path may have at most ${MAX_PATH_BYTES} bytes (${bytes} given)`);
}

/** The directories a commit reaches (paths from the root) within MAX_COMMIT_DIRECTORIES and MAX_COMMIT_DIRECTORY_BYTES. */
export function checkDirectories(dirs: readonly Uint8Array[]): void {
  if (dirs.length > MAX_COMMIT_DIRECTORIES)
    throw invalidMessage(`Too many directories: a commit may reach at most ${MAX_COMMIT_DIRECTORIES} directories (${dirs.length} given)`);
  const bytes = dirs.reduce((n, d) => n + d.length, 0);
  if (bytes > MAX_COMMIT_DIRECTORY_BYTES) {
    throw invalidMessage(`Paths too deep: the directories a commit reaches may have at most ${MAX_COMMIT_DIRECTORY_BYTES} bytes of paths (${bytes} given)`);
  }
}

/**
 * Ruby's Base64.decode64 (what Files::BaseService uses for `encoding: base64`): lenient, characters outside the
 * alphabet are skipped and a missing padding is tolerated.
 */
export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  const usable = clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0));
  const binary = atob(usable + '='.repeat((4 - (usable.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A file's content as bytes, refused (400) over the configured maximum. */
export function fileContent(ctx: RequestContext, path: string, content: string | undefined, encoding: 'text' | 'base64' | undefined): Uint8Array | undefined {
  if (content === undefined) return undefined;
  const bytes = encoding === 'base64' ? decodeBase64(content) : new TextEncoder().encode(content);
  const max = maxFileSize(ctx);
  if (bytes.length > max) throw invalidMessage(`File ${path} is too large (${megabytes(bytes.length)}): the maximum file size is ${megabytes(max)}`);
  return bytes;
}
