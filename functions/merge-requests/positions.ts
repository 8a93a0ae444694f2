// Diff note positions as GitLab 13.6 keeps them: Gitlab::Diff::Position, whose formatter (Formatters::TextFormatter
// or ImageFormatter, chosen by position_type, text when absent) holds the attributes and writes `to_h`; the stored
// form here is that hash. Here: the stored form from REST and GraphQL input, its REST and GraphQL faces, DiffNote's
// position validations, and the line code of a text position in its diff (Position#line_code, unfolding included).
// Pure: the changed paths of the position's diff come from the caller.
import type { ChangedPath } from '../../db/queries/repositories/diffs.ts';
import type { FieldErrors } from '../lib/errors.ts';
import { lineCodeOf, newLine, oldLine, parseDiffLines, pathHash, type DiffLine } from '../repositories/comments/lines.ts';
import { isBinary } from '../repositories/diffs/text.ts';
import { fileChanges, toDiffEntry, type DiffEntry } from '../repositories/diffs/diffs.ts';
import type { LineRangeParams, PositionParams } from './position-schemas.ts';

interface PositionRefs {
  base_sha: string | null;
  start_sha: string | null;
  head_sha: string | null;
  old_path: string | null;
  new_path: string | null;
}

/** `line_range` is kept as the client sent it (Grape's declared members, all Strings); GitLab never checks it. */
export type LineRange = LineRangeParams;

export interface TextPosition extends PositionRefs {
  position_type: 'text';
  old_line: number | null;
  new_line: number | null;
  line_range: LineRange | null;
}

export interface ImagePosition extends PositionRefs {
  position_type: 'image';
  width: number | null;
  height: number | null;
  x: number | null;
  y: number | null;
}

/** What a DiffNote's jsonb `position` holds: the position's `to_h`, snake_case as GitLab serializes it. */
export type StoredPosition = TextPosition | ImagePosition;

const refs = (p: Partial<PositionRefs>): PositionRefs => ({
  base_sha: p.base_sha ?? null,
  start_sha: p.start_sha ?? null,
  head_sha: p.head_sha ?? null,
  old_path: p.old_path ?? null,
  new_path: p.new_path ?? null,
});

/** Position.new(params[:position]): the formatter keeps its own attributes and drops the rest. */
export function toStoredPosition(p: PositionParams): StoredPosition {
  if (p.position_type === 'image') {
    return { ...refs(p), position_type: 'image', width: p.width ?? null, height: p.height ?? null, x: p.x ?? null, y: p.y ?? null };
  }
  return { ...refs(p), position_type: 'text', old_line: p.old_line ?? null, new_line: p.new_line ?? null, line_range: p.line_range ?? null };
}

interface GraphqlPositionRefs {
  baseSha?: string | null;
  headSha: string;
  startSha: string;
  /** DiffPathsInput: both optional. */
  paths: { oldPath?: string | null; newPath?: string | null };
}
/** DiffPositionInput (13.6: newLine required, oldLine optional). */
export interface GraphqlTextPosition extends GraphqlPositionRefs {
  newLine: number;
  oldLine?: number | null;
}
/** DiffImagePositionInput. */
export interface GraphqlImagePosition extends GraphqlPositionRefs {
  x: number;
  y: number;
  width: number;
  height: number;
}

const graphqlRefs = (p: GraphqlPositionRefs): PositionRefs =>
  refs({ base_sha: p.baseSha, start_sha: p.startSha, head_sha: p.headSha, old_path: p.paths.oldPath, new_path: p.paths.newPath });

/** Mutations::Notes::Create::DiffNote#position: `position.to_h` with position_type 'text' and the paths merged in. */
export const fromGraphqlTextPosition = (p: GraphqlTextPosition): TextPosition => ({
  ...graphqlRefs(p),
  position_type: 'text',
  old_line: p.oldLine ?? null,
  new_line: p.newLine,
  line_range: null,
});

/** Mutations::Notes::Create::ImageDiffNote#position: the same with position_type 'image'. */
export const fromGraphqlImagePosition = (p: GraphqlImagePosition): ImagePosition => ({
  ...graphqlRefs(p),
  position_type: 'image',
  width: p.width,
  height: p.height,
  x: p.x,
  y: p.y,
});

/**
 * Entities::Note's `position` (`note.position.to_h`), keys in the formatters' order: BaseFormatter's base_sha,
 * start_sha, head_sha, old_path, new_path, position_type, then TextFormatter's old_line, new_line, line_range or
 * ImageFormatter's width, height, x, y. Rebuilt here because jsonb does not keep key order. (BaseFormatter adds
 * file_identifier_hash only under the `file_identifier_hash` feature flag, off by default in 13.6.)
 */
export function positionJson<P extends StoredPosition>(p: P): P;
export function positionJson(p: StoredPosition): StoredPosition {
  if (p.position_type === 'image') {
    return { ...refs(p), position_type: 'image', width: p.width ?? null, height: p.height ?? null, x: p.x ?? null, y: p.y ?? null };
  }
  return { ...refs(p), position_type: 'text', old_line: p.old_line ?? null, new_line: p.new_line ?? null, line_range: lineRangeJson(p.line_range ?? null) };
}

const LINE_RANGE_KEYS = ['line_code', 'type', 'old_line', 'new_line'] as const;

/** `line_range` with its members in Grape's declared order (the order the client sent them is not kept). */
function lineRangeJson(range: LineRange | null): LineRange | null {
  if (range === null) return null;
  type End = NonNullable<LineRange['start']>;
  const ordered = (end: End | null | undefined): End | null | undefined =>
    end && Object.fromEntries(LINE_RANGE_KEYS.filter((k) => end[k] !== undefined).map((k) => [k, end[k]]));
  const out: LineRange = {};
  if (range.start !== undefined) out.start = ordered(range.start);
  if (range.end !== undefined) out.end = ordered(range.end);
  return out;
}

/** Ruby's `presence`: nil for a blank string. */
const presence = (s: string | null | undefined) => (s == null || s.trim() === '' ? null : s);

/** Position#file_path: `new_path.presence || old_path`. */
export const positionFilePath = (p: PositionRefs) => presence(p.new_path) ?? p.old_path;

/**
 * GraphQL's DiffPosition: diffRefs, filePath, the paths, then the text fields (null on an image) and the image fields
 * (null on a text position), as Types::Notes::DiffPositionType resolves them (`position.old_line if position.on_text?`).
 */
export function graphqlDiffPosition(p: StoredPosition) {
  const text = p.position_type === 'text' ? p : null;
  const image = p.position_type === 'image' ? p : null;
  return {
    diffRefs: { baseSha: p.base_sha ?? null, headSha: p.head_sha, startSha: p.start_sha },
    filePath: positionFilePath(p),
    oldPath: p.old_path ?? null,
    newPath: p.new_path ?? null,
    positionType: p.position_type,
    oldLine: text?.old_line ?? null,
    newLine: text?.new_line ?? null,
    x: image?.x ?? null,
    y: image?.y ?? null,
    width: image?.width ?? null,
    height: image?.height ?? null,
  };
}

/**
 * Position#complete?: a file path, both diff refs present (DiffRefs#complete?: start_sha and head_sha), and the
 * formatter's own test (a line for text, all four of width, height, x, y for an image; Ruby's truthiness, so 0 counts).
 */
export function positionComplete(p: StoredPosition): boolean {
  if (presence(positionFilePath(p)) === null || presence(p.start_sha) === null || presence(p.head_sha) === null) return false;
  if (p.position_type === 'image') return p.width != null && p.height != null && p.x != null && p.y != null;
  return p.old_line != null || p.new_line != null;
}

/**
 * DiffNote's validations on its position, in the order Rails runs them and with its messages: a text position must
 * have a line code (`validates :line_code, presence: true, line_code: true, if: :on_text?`; the code is the one
 * locateTextPosition found, null when the line is not in the diff), and every position must be complete
 * (`positions_complete`). Empty when the note may be saved; the REST API answers otherwise
 * `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`. Image positions are not
 * looked up in the diff: GitLab 13.6 saves them on any path.
 */
export function positionErrors(p: StoredPosition, lineCode: string | null): FieldErrors {
  const errors: Record<string, string[]> = {};
  if (p.position_type === 'text' && lineCode === null) errors.line_code = ["can't be blank", 'must be a valid line code'];
  if (!positionComplete(p)) errors.position = ['is incomplete'];
  return errors;
}

/** The diff file a position is on (Position#diff_file), with what unfolding needs to know of the file's old side. */
export interface PositionDiffFile {
  entry: DiffEntry;
  /** Gitlab::Git::Blob#lines.size of the old side (`data.split("\n")`); null unless both sides are text blobs. */
  oldLines: number | null;
}

const decoder = new TextDecoder();

/** Ruby's `data.split("\n").size`: trailing empty fields are not counted. */
function splitLineCount(data: Uint8Array): number {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0x0a) end--;
  if (end === 0) return 0;
  let n = 1;
  for (let i = 0; i < end; i++) if (data[i] === 0x0a) n++;
  return n;
}

/**
 * Position#diff_file over the position's own diff (DiffRefs#compare_in: start_sha..head_sha, or from the merge base
 * when start_sha is not base_sha): Gitaly diffs only the position's paths (`diff_options` paths: [old_path,
 * new_path].compact.uniq, every path when both are nil), so a rename is seen only when both of its paths are given,
 * and the first file of that diff is the position's (`diff_files.first`). `changed` is the pair's changed paths.
 */
export function positionDiffFile(changed: readonly ChangedPath[], p: StoredPosition): PositionDiffFile | null {
  const paths = new Set([p.old_path, p.new_path].filter((x): x is string => x != null));
  const first = fileChanges(paths.size ? changed.filter((c) => paths.has(decoder.decode(c.path))) : changed)[0];
  if (!first) return null;
  const text = (d: Uint8Array | null | undefined) => d != null && !isBinary(d);
  const oldData = first.old?.data;
  const oldLines = text(oldData) && text(first.new?.data) ? splitLineCount(oldData!) : null;
  return { entry: toDiffEntry(first).entry, oldLines };
}

/** Gitlab::Diff::File#line_for_position: the last diff line with the position's old_line and new_line. */
function lineInDiff(lines: readonly DiffLine[], p: TextPosition): DiffLine | null {
  // Only meta lines (hunk headers, "\ No newline"), which have no line code, have neither line.
  if (p.old_line == null && p.new_line == null) return null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (oldLine(l) === p.old_line && newLine(l) === p.new_line) return l;
  }
  return null;
}

const UNFOLD_CONTEXT_SIZE = 3;

/**
 * Gitlab::Diff::LinesUnfolder: an unchanged line outside the hunks of a changed text file is a line of the diff
 * once the old blob's lines around it are unfolded into it. The unfold point is the first hunk header below the line
 * (or the diff's last line when the line is below it all); the blob lines taken are the line and up to 3 on either
 * side, not reaching into the neighbouring hunks, numbered on the new side with the unfold point's offset
 * (new_pos - old_pos). GitLab's arithmetic is kept as it is: below a diff ending in an added line, that offset is one
 * short of git's.
 */
function unfoldedLine(file: PositionDiffFile, lines: readonly DiffLine[], p: TextPosition): DiffLine | null {
  const { old_line: oldL, new_line: newL } = p;
  if (file.oldLines === null || oldL == null || newL == null) return null;
  if (file.entry.new_file || file.entry.deleted_file || oldL > file.oldLines || lines.length === 0) return null;
  const last = lines.length - 1;
  const bottom = oldL > lines[last]!.oldPos;
  const at = bottom ? last : lines.findIndex((l) => l.oldPos > oldL && l.type === 'match');
  // A hunk header is never the diff's last line; GitLab would fail there (nil.old_pos).
  if (at < 0 || (!bottom && at === last)) return null;
  const unfoldAt = lines[at]!;
  const from = Math.max(oldL - UNFOLD_CONTEXT_SIZE, (at > 0 ? lines[at - 1]!.oldPos : 0) + 1);
  const to = bottom ? oldL + UNFOLD_CONTEXT_SIZE : Math.min(oldL + UNFOLD_CONTEXT_SIZE, lines[at + 1]!.oldPos - 1);
  if (oldL < from || oldL > to || newL !== oldL + unfoldAt.newPos - unfoldAt.oldPos) return null;
  return { type: null, oldPos: oldL, newPos: newL };
}

/**
 * Position#line_code: the code of the position's line in its diff file (the diff line, or an unfolded one), as
 * Gitlab::Git.diff_line_code writes it for the file's path (`new_path.presence || old_path`); null when the line is
 * not one the diff shows, which DiffNote's validation then refuses.
 */
export async function locateTextPosition(file: PositionDiffFile | null, p: TextPosition): Promise<{ lineCode: string } | null> {
  if (file === null) return null;
  const lines = parseDiffLines(file.entry.diff);
  const line = lineInDiff(lines, p) ?? unfoldedLine(file, lines, p);
  if (line === null) return null;
  const filePath = presence(file.entry.new_path) ?? file.entry.old_path;
  return { lineCode: lineCodeOf(await pathHash(filePath), line) };
}
