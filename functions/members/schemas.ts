// Member inputs and GitLab 13.6's Entities::Member (the user's UserBasic merged with the membership).
import type { AccessRequestRow, MemberRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { accessLevel, idArray } from '../groups/schemas.ts';
import { paginationParams } from '../lib/pagination.ts';
import { AccessLevel } from '../lib/policy.ts';
import * as z from 'zod/mini';
import { dateParam, schema, str } from '../lib/validate.ts';
import { lookupId, toUserBasic } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';

/** `expires_at`: a date (a date-time names its date); an empty value (or JSON null) clears it. */
const expiresAt = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' ? null : v)),
    z.nullable(dateParam()),
  );

export const ListMembersInput = schema(() =>
  z.object({
    ...paginationParams(),
    query: z.optional(str(255)),
    user_ids: z.optional(idArray()),
  }),
);

/**
 * Grape declares user_id before access_level: missing both reads "user_id is missing, access_level is missing".
 * `user_id` is looked up (404 User Not Found when nobody has it), so ids no row can have are null, not a 500.
 */
export const AddMemberInput = schema(() =>
  z.object({
    user_id: lookupId(),
    access_level: accessLevel(),
    expires_at: z.optional(expiresAt()),
  }),
);

export const UpdateMemberInput = schema(() =>
  z.object({
    access_level: accessLevel(),
    expires_at: z.optional(expiresAt()),
  }),
);

/** `:user_id` in paths: any integer (GitLab looks it up and answers 404 when nothing matches; null: no row can match). */
export const MemberUserPath = () => ({ user_id: lookupId() });

/** Entities::Member */
export function toMember(row: { member: MemberRow; user: UserRow }, config: Config) {
  return {
    ...toUserBasic(row.user, config),
    access_level: row.member.accessLevel,
    created_at: iso(row.member.createdAt),
    expires_at: row.member.expiresAt ?? null,
  };
}

export const ACCESS_LEVEL_NAMES: Record<number, string> = {
  [AccessLevel.GUEST]: 'Guest',
  [AccessLevel.REPORTER]: 'Reporter',
  [AccessLevel.DEVELOPER]: 'Developer',
  [AccessLevel.MAINTAINER]: 'Maintainer',
  [AccessLevel.OWNER]: 'Owner',
};

/** PUT access_requests/:user_id/approve: the level to grant (Developer when absent). */
export const ApproveAccessRequestInput = schema(() => z.object({ access_level: z.optional(accessLevel()) }));

export const ListAccessRequestsInput = schema(() => z.object(paginationParams()));

/** Entities::AccessRequester: the user's UserBasic and when they asked. */
export function toAccessRequester(row: { request: AccessRequestRow; user: UserRow }, config: Config) {
  return { ...toUserBasic(row.user, config), requested_at: iso(row.request.requestedAt) };
}
