// Repository response shapes as GitLab 13.6 emits them: lib/api/entities/{commit,commit_stats,commit_detail,branch,
// tree_object,tag}.rb, the hashes lib/api/files.rb and repositories.rb build by hand, and the push event payload of
// app/services/push_event_payload_service.rb. Keys are in Grape's exposure order. Pure functions over small views
// (hex object ids, decoded names); the routes map stored rows onto them.
import type { PushPayload } from '../events/record.ts';

/** Where the repository lives: `web_url`s hang off the project's page, `project_id` is its id. */
export interface RepositoryContext {
  projectId: number;
  /** The project's web URL, `https://host/group/project`. */
  projectWebUrl: string;
}

/** A commit as git_commits holds it: object ids in hex, each date with the zone git wrote (`+0200`). */
export interface CommitView {
  oid: string;
  parentOids: readonly string[];
  authorName: string;
  authorEmail: string;
  authoredAt: Date;
  authorTz: string;
  committerName: string;
  committerEmail: string;
  committedAt: Date;
  committerTz: string;
  /** The whole message, as stored in the commit object. */
  message: string;
}

export interface CommitStatsView {
  additions: number;
  deletions: number;
}

// ---- Dates ----

const ZONE = /^([+-])(\d{2})(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A commit date in the commit's own zone, as GitLab renders it: Gitlab::Git::Commit reads Gitaly's seconds and zone
 * with `Time.strptime("#{seconds} #{timezone}", '%s %z')`, and ActiveSupport's Time#as_json writes `xmlschema(3)`:
 * `2012-09-20T11:50:22.000+03:00`. Ruby's strptime takes `-0000` for UTC (`Z`) and `+0000` for a zero offset
 * (`+00:00`); a zone it cannot read is taken as UTC here (GitLab's branch for a commit without one).
 */
export function commitTime(at: Date, tz: string): string {
  const m = ZONE.exec(tz);
  const hours = m ? Number(m[2]) : 0;
  const minutes = m ? Number(m[3]) : 0;
  if (!m || tz === '-0000' || hours > 23 || minutes > 59) return at.toISOString();
  const sign = m[1] === '-' ? -1 : 1;
  const local = new Date(at.getTime() + sign * (hours * 60 + minutes) * 60_000);
  return `${local.toISOString().slice(0, -1)}${m[1]}${pad(hours)}:${pad(minutes)}`;
}

// ---- Commits ----

/** Commit#full_title: the message's first line (up to `\r` or `\n`), or "No commit message" when it is blank. */
export function fullTitle(message: string): string {
  return message.trim() === '' ? 'No commit message' : message.split(/[\r\n]/, 1)[0]!;
}

/**
 * Commit#title, what REST's `title` and GraphQL's `title` show: the full title, or from 100 characters on,
 * ActiveSupport's truncate(81, separator: ' ', omission: '…'): cut at the last space at or before index 80.
 */
export function commitTitle(message: string): string {
  const full = fullTitle(message);
  if (full.length < 100) return full;
  const space = full.lastIndexOf(' ', 80);
  return `${full.slice(0, space === -1 ? 80 : space)}…`;
}

/** Commit#description: the message after the title's line (chomped), the whole message when the title was cut. */
export function commitDescription(message: string): string | null {
  if (fullTitle(message).length >= 100) return message;
  const newline = message.indexOf('\n');
  return newline === -1 ? null : message.slice(newline + 1).replace(/\r?\n$/, '');
}

/** Commit#short_id: `id[0..MIN_SHA_LENGTH]`, the first 8 characters. */
export const shortId = (oid: string) => oid.slice(0, 8);

/** Gitlab::UrlBuilder's commit URL: `<project>/-/commit/<sha>`. */
export const commitWebUrl = (repo: RepositoryContext, oid: string) => `${repo.projectWebUrl}/-/commit/${oid}`;

/** Entities::Commit. `created_at` is the committed date (Commit#created_at). */
export function toCommit(c: CommitView, repo: RepositoryContext) {
  return {
    id: c.oid,
    short_id: shortId(c.oid),
    created_at: commitTime(c.committedAt, c.committerTz),
    parent_ids: [...c.parentOids],
    title: commitTitle(c.message),
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: commitTime(c.authoredAt, c.authorTz),
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: commitTime(c.committedAt, c.committerTz),
    web_url: commitWebUrl(repo, c.oid),
  };
}

/** Entities::CommitStats. */
export const toCommitStats = (s: CommitStatsView) => ({ additions: s.additions, deletions: s.deletions, total: s.additions + s.deletions });

/** Entities::CommitWithStats (GET repository/commits?with_stats=true). */
export const toCommitWithStats = (c: CommitView, stats: CommitStatsView, repo: RepositoryContext) => ({ ...toCommit(c, repo), stats: toCommitStats(stats) });

/**
 * Entities::CommitDetail: `stats` only when asked for (`stats` parameter, default true), then `status` and
 * `last_pipeline`, which stay null until this service runs pipelines.
 */
export function toCommitDetail(c: CommitView, repo: RepositoryContext, stats: CommitStatsView | null) {
  return {
    ...toCommit(c, repo),
    ...(stats ? { stats: toCommitStats(stats) } : {}),
    status: null,
    project_id: repo.projectId,
    last_pipeline: null,
  };
}

// ---- Branches and tags ----

export interface BranchView {
  name: string;
  commit: CommitView;
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  /** Whether the caller may push to it (Gitlab::UserAccess#can_push_to_branch?). */
  canPush: boolean;
  default: boolean;
}

/**
 * A ref name in a URL path, as Rails escapes a glob segment (Journey's escape_path): unreserved characters,
 * sub-delimiters, `:`, `@` and `/` stay, everything else is percent-encoded UTF-8.
 */
const escapePath = (s: string) => encodeURIComponent(s).replace(/%(2F|3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g, (e) => decodeURIComponent(e));

/** Entities::Branch; `web_url` is project_tree_url. */
export function toBranch(b: BranchView, repo: RepositoryContext) {
  return {
    name: b.name,
    commit: toCommit(b.commit, repo),
    merged: b.merged,
    protected: b.protected,
    developers_can_push: b.developersCanPush,
    developers_can_merge: b.developersCanMerge,
    can_push: b.canPush,
    default: b.default,
    web_url: `${repo.projectWebUrl}/-/tree/${escapePath(b.name)}`,
  };
}

export interface TagView {
  name: string;
  /**
   * The annotated tag's message as stored; "" for a lightweight tag (Gitlab::Git::Tag reads Gitaly's empty message:
   * the docs' `null` is hand-written).
   */
  message: string;
  /** The tag object's id for an annotated tag, the commit's for a lightweight one (Gitlab::Git::Tag#target). */
  targetOid: string;
  commit: CommitView;
  protected: boolean;
}

/** Entities::Tag. `release` (Entities::TagRelease) is null: this service keeps no releases. */
export function toTag(t: TagView, repo: RepositoryContext) {
  return {
    name: t.name,
    message: t.message,
    target: t.targetOid,
    commit: toCommit(t.commit, repo),
    release: null,
    protected: t.protected,
  };
}

// ---- Trees, blobs and files ----

export interface TreeEntryView {
  oid: string;
  name: string;
  /** The path from the repository root. */
  path: string;
  /** The octal mode as the tree object stores it (`100644`, `40000`, `160000`). */
  mode: string;
}

/** Gitaly's entry type: a directory is a tree, a submodule (gitlink) a commit, anything else a blob. */
export const entryType = (mode: string) => (mode === '40000' || mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob');

/** Entities::TreeObject: the mode is padded with one `0` when shorter than six digits (`040000`). */
export function toTreeObject(e: TreeEntryView) {
  return { id: e.oid, name: e.name, type: entryType(e.mode), path: e.path, mode: e.mode.length < 6 ? `0${e.mode}` : e.mode };
}

/** Base64 (RFC 4648, padded) of bytes, as Ruby's Base64.strict_encode64. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** GET repository/blobs/:sha (repositories.rb builds the hash). */
export const toBlob = (b: { oid: string; content: Uint8Array }) => ({ size: b.content.length, encoding: 'base64', content: base64(b.content), sha: b.oid });

export interface FileView {
  /** The file's path from the repository root (its name is the last segment). */
  path: string;
  content: Uint8Array;
  /** SHA-256 of the content, hex. */
  contentSha256: string;
  /** The `ref` parameter as given. */
  ref: string;
  blobOid: string;
  /** The commit `ref` resolved to. */
  commitOid: string;
  /** The last commit that changed the path, up to that commit. */
  lastCommitOid: string;
}

/** files.rb's blob_data: the metadata GET and HEAD share (HEAD sends it as X-Gitlab-* headers). */
export function fileMetadata(f: FileView) {
  return {
    file_name: f.path.slice(f.path.lastIndexOf('/') + 1),
    file_path: f.path,
    size: f.content.length,
    encoding: 'base64',
    content_sha256: f.contentSha256,
    ref: f.ref,
    blob_id: f.blobOid,
    commit_id: f.commitOid,
    last_commit_id: f.lastCommitOid,
  };
}

/** GET repository/files/:file_path: `blob_data.merge(content: ...)`, so `content` comes last. */
export const toFile = (f: FileView) => ({ ...fileMetadata(f), content: base64(f.content) });

/** Helpers::HeadersHelpers#set_http_headers: `file_name` -> `X-Gitlab-File-Name`, values as strings. */
export function fileHeaders(f: FileView): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileMetadata(f))) {
    const name = key
      .split('_')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('-');
    headers[`X-Gitlab-${name}`] = String(value);
  }
  return headers;
}

/** The body of POST (201) and PUT (200) repository/files/:file_path: files.rb's commit_response. */
export const toFileCommit = (p: { file_path: string; branch: string }) => ({ file_path: p.file_path, branch: p.branch });

// ---- Push events ----

const BLANK_SHA = '0'.repeat(40);
const isBlank = (oid: string | null) => oid === null || oid === BLANK_SHA;
// Ruby's String#strip: NUL and ASCII whitespace at either end.
const RUBY_STRIP = /^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g;

/**
 * PushEventPayloadService#commit_title: the message up to and including its first newline, stripped, then
 * ActiveSupport's `truncate(70)` (more than 70 characters: the first 67 and "..."); null without a commit.
 */
export function pushCommitTitle(message: string | null): string | null {
  if (message === null) return null;
  const index = message.indexOf('\n');
  const line = (index === -1 ? message : message.slice(0, index + 1)).replace(RUBY_STRIP, '');
  const chars = Array.from(line);
  return chars.length > 70 ? `${chars.slice(0, 67).join('')}...` : line;
}

export interface RefChange {
  /** The full ref name, `refs/heads/main` or `refs/tags/v1.0`. */
  ref: string;
  /** The old and new object ids; null (or 40 zeros) when the ref is created or removed. */
  before: string | null;
  after: string | null;
  /** How many commits the push brought (push data's total_commits_count). */
  commitCount: number;
  /** The message of the last commit of the push data (the newest); null when it lists none. */
  lastCommitMessage: string | null;
}

/**
 * PushEventPayloadService#execute: action `created` when `before` is blank, `removed` when `after` is, else
 * `pushed`; `commit_from`/`commit_to` null on those sides; `ref` without refs/heads/ or refs/tags/
 * (Gitlab::Git.ref_name); `ref_count` only for bulk pushes (not recorded here).
 */
export function toPushPayload(change: RefChange): PushPayload {
  const created = isBlank(change.before);
  const removed = isBlank(change.after);
  return {
    commitCount: change.commitCount,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    refType: change.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    commitFrom: created ? null : change.before,
    commitTo: removed ? null : change.after,
    ref: change.ref.replace(/^refs\/(tags|heads|remotes)\//, ''),
    commitTitle: pushCommitTitle(change.lastCommitMessage),
  };
}
