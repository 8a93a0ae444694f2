import type { PersonalAccessTokenRow } from '../../db/schema/index.ts';
import { paginationParams } from '../lib/pagination.ts';
import { id, isoDate, oneOf, str, z } from '../lib/validate.ts';

/** Scopes a personal access token may carry (GitLab's list; OpenID scopes belong to OAuth applications). */
export const PAT_SCOPES = ['api', 'read_user', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo'] as const;

export const CreateTokenInput = z.object({
  name: str(255),
  scopes: z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v)),
    z.array(oneOf(PAT_SCOPES)).check(z.minLength(1)),
  ),
  expires_at: z.optional(isoDate()),
});

export const ListTokensInput = z.object({ ...paginationParams, user_id: z.optional(id()) });

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

export const toNewToken = (t: PersonalAccessTokenRow, token: string) => ({ ...toToken(t), token });
