// GitLab 13.6 lib/api/protected_branches.rb's parameters and Entities::ProtectedBranch (CE: role access levels only;
// the per-user/group levels and unprotect levels are paid features not served here).
import * as z from 'zod/mini';
import type { ProtectedBranchRow } from '../../../db/schema/index.ts';
import { paginationParams } from '../../lib/pagination.ts';
import { intIn, plainString, schema, type Output } from '../../lib/validate.ts';

/** ProtectedRefAccess.allowed_access_levels: maintainers, developers, no one, administrators. */
export const PROTECTED_ACCESS_LEVELS = [40, 30, 0, 60] as const;

/** ProtectedRefAccess::HUMAN_ACCESS_LEVELS (13.6 has no wording for 60: `humanize` answers nil). */
const HUMAN: Readonly<Record<number, string>> = { 40: 'Maintainers', 30: 'Developers + Maintainers', 0: 'No one' };

/**
 * Grape's `type: String` for the name (numbers arrive as their text; a NUL, which no ref holds, is `name is invalid`);
 * blank is the model's error, not Grape's.
 */
const name = () => plainString();

const level = () => z.optional(intIn(PROTECTED_ACCESS_LEVELS));

export const ListProtectedBranchesInput = schema(() => z.object({ ...paginationParams(), search: z.optional(z.string()) }));
export type ListProtectedBranchesParams = Output<typeof ListProtectedBranchesInput>;

export const ProtectBranchInput = schema(() => z.object({ name: name(), push_access_level: level(), merge_access_level: level() }));
export type ProtectBranchParams = Output<typeof ProtectBranchInput>;

const toAccessLevel = (accessLevel: number) => ({ access_level: accessLevel, access_level_description: HUMAN[accessLevel] ?? null });

/** Entities::ProtectedBranch. */
export function toProtectedBranch(row: ProtectedBranchRow) {
  return {
    id: row.id,
    name: row.name,
    push_access_levels: [toAccessLevel(row.pushAccessLevel)],
    merge_access_levels: [toAccessLevel(row.mergeAccessLevel)],
    // Code owners are a paid feature: never required here.
    code_owner_approval_required: false,
  };
}
