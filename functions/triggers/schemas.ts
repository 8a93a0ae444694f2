// Pipeline trigger inputs (GitLab 13.6 lib/api/triggers.rb) and Entities::Trigger.
import * as z from 'zod/mini';
import type { TriggerRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { schema, str, text } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';

export const ListTriggersInput = schema(() => z.object({ ...paginationParams() }));

/** ci_triggers.description holds at most 255 characters (a model error past that). */
const description = () => text(255);

export const CreateTriggerInput = schema(() => z.object({ description: description() }));
export const UpdateTriggerInput = schema(() => z.object({ description: z.optional(description()) }));

/** Grape's `type: String` on a scalar. */
const scalar = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
    z.string(),
  );

/**
 * POST /projects/:id/trigger/pipeline: `ref` (allow_blank: false), `token`, `variables` (a Hash: a JSON object or
 * form fields `variables[KEY]=value`, already nested). Whether the Hash holds only strings is the service's check,
 * made after the pipeline-hook check as GitLab orders them.
 */
export const TriggerPipelineInput = schema(() =>
  z.object({
    ref: z.pipe(str(1024), z.string().check(z.refine((s) => s.trim() !== '', { message: 'is empty' }))),
    token: scalar(),
    variables: z.optional(
      z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob), { message: 'is invalid' }),
    ),
  }),
);

/**
 * Entities::Trigger. `token` is what the caller may see: the full token only in the answer that created it (it is
 * stored as a digest), otherwise its first 4 characters.
 */
export const toTrigger = (t: TriggerRow, owner: UserRow | null, token: string, config: Config) => ({
  id: t.id,
  token,
  description: t.description,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
  last_used: iso(t.lastUsedAt),
  owner: owner ? toUserBasic(owner, config) : null,
});
