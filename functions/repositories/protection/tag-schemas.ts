// GitLab 13.6 lib/api/protected_tags.rb's parameters and Entities::ProtectedTag (CE: one role-based create access
// level; the per-user/group levels are a paid feature not served here).
import * as z from 'zod/mini';
import type { ProtectedTagRow } from '../../../db/schema/index.ts';
import { paginationParams } from '../../lib/pagination.ts';
import { intIn, plainString, schema, type Output } from '../../lib/validate.ts';

/** ProtectedTag::CreateAccessLevel.allowed_access_levels (ProtectedRefAccess in CE): maintainers, developers, no one. */
export const TAG_CREATE_ACCESS_LEVELS = [40, 30, 0] as const;

/** ProtectedRefAccess::HUMAN_ACCESS_LEVELS. */
const HUMAN: Readonly<Record<number, string>> = { 40: 'Maintainers', 30: 'Developers + Maintainers', 0: 'No one' };

/**
 * Grape's `type: String` for the name (numbers arrive as their text; a NUL, which no ref holds, is `name is invalid`);
 * blank is the model's error, not Grape's.
 */
const name = () => plainString();

export const ListProtectedTagsInput = schema(() => z.object({ ...paginationParams() }));
export type ListProtectedTagsParams = Output<typeof ListProtectedTagsInput>;

export const ProtectTagInput = schema(() => z.object({ name: name(), create_access_level: z.optional(intIn(TAG_CREATE_ACCESS_LEVELS)) }));
export type ProtectTagParams = Output<typeof ProtectTagInput>;

/** Entities::ProtectedTag with Entities::ProtectedRefAccess for its one create access level. */
export function toProtectedTag(row: ProtectedTagRow) {
  return {
    name: row.name,
    create_access_levels: [{ access_level: row.createAccessLevel, access_level_description: HUMAN[row.createAccessLevel] ?? null }],
  };
}
