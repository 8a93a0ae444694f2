// Whether an OAuth access token is usable now: the one rule for the API, /oauth/token/info and introspection.
import type { OAuthAccessTokenRow } from '../../db/schema/index.ts';

export type TokenState = 'active' | 'revoked' | 'expired';

export function tokenState(t: Pick<OAuthAccessTokenRow, 'revokedAt' | 'createdAt' | 'expiresIn'>, now = Date.now()): TokenState {
  if (t.revokedAt && t.revokedAt.getTime() <= now) return 'revoked';
  if (t.expiresIn !== null && t.createdAt.getTime() + t.expiresIn * 1000 <= now) return 'expired';
  return 'active';
}

/** Seconds left (null for a token without expiry). */
export const expiresInSeconds = (t: Pick<OAuthAccessTokenRow, 'createdAt' | 'expiresIn'>, now = Date.now()) =>
  t.expiresIn === null ? null : Math.max(0, Math.floor((t.createdAt.getTime() + t.expiresIn * 1000 - now) / 1000));
