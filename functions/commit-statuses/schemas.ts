// Commit status inputs (GitLab 13.6 lib/api/commit_statuses.rb) and Entities::CommitStatus.
import * as z from 'zod/mini';
import type { StatusRow } from '../../db/queries/commit-statuses.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { int, oneOf, schema, str, text } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';

/** Grape's `type: String` on a scalar (JSON numbers and booleans become their text), with no length rule of its own. */
const scalar = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
    z.string(),
  );

/** Grape's `type: Float`: a number, or text that reads as one. */
const float = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v)),
    z.number().check(z.refine((n) => Number.isFinite(n), { message: 'is invalid' })),
  );

export const ListStatusesInput = schema(() =>
  z.object({
    ...paginationParams(),
    ref: z.optional(scalar()),
    stage: z.optional(scalar()),
    name: z.optional(scalar()),
    all: z.optional(scalar()),
  }),
);

export const STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const;
export type PostedState = (typeof STATES)[number];

export const PostStatusInput = schema(() =>
  z.object({
    state: oneOf(STATES),
    ref: z.optional(scalar()),
    target_url: z.optional(scalar()),
    description: z.optional(text(4096)),
    name: z.optional(str(255)),
    context: z.optional(str(255)),
    coverage: z.optional(float()),
    pipeline_id: z.optional(int()),
  }),
);

/** Entities::CommitStatus: `sha` is the pipeline's, `author` the user who posted it (or ran the job). */
export const toCommitStatus = (r: StatusRow, config: Config) => ({
  id: r.status.id,
  sha: r.sha,
  ref: r.status.ref,
  status: r.status.status,
  name: r.status.name,
  target_url: r.status.targetUrl,
  description: r.status.description,
  created_at: iso(r.status.createdAt),
  started_at: iso(r.status.startedAt),
  finished_at: iso(r.status.finishedAt),
  allow_failure: r.status.allowFailure,
  coverage: r.status.coverage,
  author: r.author ? toUserBasic(r.author, config) : null,
});
