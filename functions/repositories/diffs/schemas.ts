// Parameters of the diff reads (GitLab 13.6 lib/api/commits.rb `commits/:sha/diff`, lib/api/repositories.rb
// `compare` and `merge_base`), with Grape's messages (lib/validate.ts).
import * as z from 'zod/mini';
import { paginationParams } from '../../lib/pagination.ts';
import { bool, int, plainString, schema, type Output } from '../../lib/validate.ts';

/** Grape's `type: String` (no NUL: lib/validate.ts). */
const string = plainString;

/** GET repository/commits/:sha/diff. */
export const CommitDiffInput = schema(() => z.object({ ...paginationParams() }));

/**
 * GET repository/compare: `from`, `to` required; `from_project_id` (`type: Integer`; blank: not given); `straight`
 * (default false: from the merge base, `from...to`).
 */
export const CompareInput = schema(() =>
  z.object({
    from: string(),
    to: string(),
    from_project_id: z.optional(
      z.pipe(
        z.transform((v: unknown): unknown => (v === null || v === '' ? undefined : v)),
        z.optional(int()),
      ),
    ),
    straight: z._default(bool(), false),
  }),
);
export type CompareParams = Output<typeof CompareInput>;

/** GET repository/merge_base: `requires :refs, type: Array[String]`. */
export const MergeBaseInput = schema(() => z.object({ refs: z.array(string()) }));
