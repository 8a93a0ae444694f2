// The `position` parameter of POST /projects/:id/merge_requests/:iid/discussions, as GitLab 13.6's lib/api/discussions.rb
// declares it: `optional :position, type: Hash` with base_sha, start_sha, head_sha and position_type (text|image)
// required, the paths and line numbers optional, Integer lines and image coordinates, and for merge requests a
// `line_range` Hash of `start`/`end` Hashes whose four members are all `type: String` (even the line numbers).
import * as z from 'zod/mini';
import { int, oneOf, schema, type Output } from '../lib/validate.ts';

/** Grape's `type: String`: any text; a JSON number or boolean is its text, JSON null stays nil. */
const grapeString = () =>
  z.nullable(
    z.pipe(
      z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
      z.string(),
    ),
  );

/** Grape's `type: Integer`: a blank form value (`position[old_line]=`) is nil, as Grape coerces blanks for non-String types. */
const grapeInteger = () =>
  z.nullable(
    z.pipe(
      z.transform((v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v)),
      z.nullable(int()),
    ),
  );

/** One end of `line_range`: line_code, type, old_line, new_line, all optional Strings. */
const lineRangeEnd = () =>
  z.nullable(
    z.object({
      line_code: z.optional(grapeString()),
      type: z.optional(grapeString()),
      old_line: z.optional(grapeString()),
      new_line: z.optional(grapeString()),
    }),
  );

/** `position`, parsed: unknown keys are dropped (Gitlab::Diff::Position keeps only its formatter's attributes). */
export const PositionInput = schema(() =>
  z.object({
    base_sha: grapeString(),
    start_sha: grapeString(),
    head_sha: grapeString(),
    position_type: oneOf(['text', 'image']),
    new_path: z.optional(grapeString()),
    new_line: z.optional(grapeInteger()),
    old_path: z.optional(grapeString()),
    old_line: z.optional(grapeInteger()),
    width: z.optional(grapeInteger()),
    height: z.optional(grapeInteger()),
    x: z.optional(grapeInteger()),
    y: z.optional(grapeInteger()),
    line_range: z.optional(z.nullable(z.object({ start: z.optional(lineRangeEnd()), end: z.optional(lineRangeEnd()) }))),
  }),
);
export type PositionParams = Output<typeof PositionInput>;
export type LineRangeParams = NonNullable<PositionParams['line_range']>;
