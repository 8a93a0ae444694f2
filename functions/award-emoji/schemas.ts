// Award emoji inputs (GitLab's lib/api/award_emoji.rb) and Entities::AwardEmoji (13.x).
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { schema } from '../lib/validate.ts';
import { toUserBasic, type BasicUserFields } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';

export const ListAwardsInput = schema(() => z.object({ ...paginationParams() }));

/**
 * `requires :name, type: String`: only its presence is a parameter error (`name is missing`); whether it names an
 * emoji is the model's rule (AwardEmoji's emoji name validation), checked by the service.
 */
export const CreateAwardInput = schema(() =>
  z.object({
    name: z.pipe(
      z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
      z.string(),
    ),
  }),
);

/** What the entity needs of an award. */
export interface AwardShape {
  id: number;
  name: string;
  awardableType: string;
  awardableId: number;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** Entities::AwardEmoji */
export function toAwardEmoji(a: AwardShape, user: BasicUserFields, config: Config) {
  return {
    id: a.id,
    name: a.name,
    user: toUserBasic(user, config),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    awardable_id: a.awardableId,
    awardable_type: a.awardableType,
  };
}
