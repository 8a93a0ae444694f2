import type { PersonalAccessTokenRow } from '../../db/schema/index.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { commaList, dateParam, id, schema, splitCommas, str } from '../lib/validate.ts';

/** Gitlab::Auth.all_available_scopes (13.6): what a personal access token may carry. OpenID scopes are OAuth's. */
export const PAT_SCOPES = ['api', 'read_user', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo'] as const;

/**
 * `requires :scopes, type: Array[String], coerce_with: CommaSeparatedToArray, values: all_available_scopes`.
 * A missing list is both "is missing" and "does not have a valid value", as Grape reports it.
 */
const scopes = () =>
  z.pipe(
    z.pipe(
      z.transform(splitCommas),
      z.unknown().check(
        z.superRefine((v, ctx) => {
          if (v === undefined || v === null) {
            ctx.issues.push({ code: 'custom', message: 'is missing', input: v });
            ctx.issues.push({ code: 'custom', message: 'does not have a valid value', input: v });
          } else if (!Array.isArray(v)) {
            ctx.issues.push({ code: 'custom', message: 'is invalid', input: v });
          } else if (!v.every((s) => (PAT_SCOPES as readonly unknown[]).includes(s))) {
            ctx.issues.push({ code: 'custom', message: 'does not have a valid value', input: v });
          }
        }),
      ),
    ),
    z.transform((v): string[] => [...new Set(v as string[])]),
  );

export const CreateTokenInput = schema(() =>
  z.object({
    name: str(255),
    scopes: scopes(),
    // Grape's `Date`: lib/validate.ts's one date rule.
    expires_at: z.optional(dateParam()),
  }),
);

export const ListTokensInput = schema(() => z.object({ user_id: z.optional(id()), ...paginationParams() }));

const today = () => new Date().toISOString().slice(0, 10);

/** Entities::PersonalAccessToken (the token value only at creation, through toNewToken). */
export function toToken(t: PersonalAccessTokenRow) {
  const expired = t.expiresAt !== null && t.expiresAt <= today();
  return {
    id: t.id,
    name: t.name,
    revoked: t.revoked,
    created_at: t.createdAt.toISOString(),
    scopes: t.scopes,
    user_id: t.userId,
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    active: !t.revoked && !expired,
    expires_at: t.expiresAt,
  };
}

/** Entities::PersonalAccessTokenWithToken */
export const toNewToken = (t: PersonalAccessTokenRow, token: string) => ({ ...toToken(t), token });

/** POST /users/:user_id/impersonation_tokens: `scopes` optional (the model requires them). */
export const CreateImpersonationTokenInput = schema(() =>
  z.object({
    name: str(255),
    scopes: z.optional(commaList()),
    expires_at: z.optional(dateParam()),
  }),
);

export const ListImpersonationTokensInput = schema(() => z.object({ ...paginationParams(), state: z._default(z.enum(['all', 'active', 'inactive']), 'all') }));

/** Entities::ImpersonationToken */
export const toImpersonationToken = (t: PersonalAccessTokenRow) => ({ ...toToken(t), impersonation: t.impersonation });
