// The provider's verbs shared by the token endpoint and the consent page: authorization codes, token sets, and the
// token response (RFC 6749 §5.1 with GitLab's `created_at`).
import type { Context } from 'hono';
import { hasMatchingToken, insertGrant, insertTokens } from '../../db/queries/oauth.ts';
import type { Db } from '../../db/client.ts';
import type { OAuthApplicationRow, UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';

export const CODE_TTL_SECONDS = 600;
export const ACCESS_TOKEN_TTL_SECONDS = 7200;
/** How long after its rotation a refresh token may be presented again as a retry (grants/refresh-token.ts). */
export const REFRESH_RETRY_GRACE_SECONDS = 60;
/** The spec (and issue 3) show `bearer`; Doorkeeper 5 answers `Bearer`. RFC 6749 makes it case-insensitive. */
export const TOKEN_TYPE = 'bearer';

import { NO_STORE } from '../lib/no-store.ts';

/**
 * Creates an authorization code (Doorkeeper's access grant) for a consented request; returns the plaintext code,
 * shown once in the redirect. The caller has already checked the redirect URI against the application and the
 * scopes against what it may request.
 */
export async function createAuthorizationCode(args: {
  db: Db;
  application: Pick<OAuthApplicationRow, 'id'>;
  userId: number;
  redirectUri: string;
  scopes: readonly string[];
  codeChallenge?: string | null;
  codeChallengeMethod?: 'S256' | 'plain' | null;
  nonce?: string | null;
}): Promise<string> {
  const code = randomToken();
  await insertGrant(args.db, {
    codeDigest: await sha256Hex(code),
    applicationId: args.application.id,
    userId: args.userId,
    redirectUri: args.redirectUri,
    scopes: [...args.scopes],
    codeChallenge: args.codeChallenge ?? null,
    // RFC 7636 §4.3: a challenge without a method is "plain".
    codeChallengeMethod: args.codeChallenge ? (args.codeChallengeMethod ?? 'plain') : null,
    nonce: args.nonce ?? null,
    expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
  });
  return code;
}

/**
 * The one rule for whom OAuth grants anything, on the consent page and in the password grant: an account whose
 * email is confirmed. GitLab's GlobalPolicy calls an unconfirmed user `inactive` and prevents `:log_in`, so its
 * consent page shows `unconfirmed_email` and its password grant finds no resource owner (Doorkeeper: invalid_grant).
 */
export const canBeGranted = (user: Pick<UserRow, 'confirmedAt'>) => user.confirmedAt !== null;

/**
 * Doorkeeper's `skip_authorization? || matching_token?`: trusted (admin-marked) applications, and applications the
 * user already granted exactly these scopes, need no consent.
 */
export async function skipsConsent(ctx: RequestContext, application: Pick<OAuthApplicationRow, 'id' | 'trusted'>, userId: number, scopes: readonly string[]) {
  return application.trusted || (await hasMatchingToken(ctx.db, application.id, userId, scopes));
}

/** Fresh plaintext tokens and the digests that are stored. */
export async function newTokenPair(withRefresh = true) {
  const accessToken = randomToken();
  const refreshToken = withRefresh ? randomToken() : null;
  return {
    accessToken,
    refreshToken,
    tokenDigest: await sha256Hex(accessToken),
    refreshTokenDigest: refreshToken ? await sha256Hex(refreshToken) : null,
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    lineage: crypto.randomUUID(),
  };
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  scopes: readonly string[];
  createdAt: number;
  expiresIn: number;
}

/** A new token set (new lineage) for a user and application: the password grant. */
export async function issueTokens(
  db: Db,
  args: { applicationId: number | null; userId: number; scopes: readonly string[]; refresh?: boolean },
): Promise<IssuedTokens> {
  const pair = await newTokenPair(args.refresh ?? true);
  const row = await insertTokens(db, {
    tokenDigest: pair.tokenDigest,
    refreshTokenDigest: pair.refreshTokenDigest,
    applicationId: args.applicationId,
    userId: args.userId,
    scopes: [...args.scopes],
    expiresIn: pair.expiresIn,
    lineage: pair.lineage,
  });
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    scopes: args.scopes,
    createdAt: Math.floor(row.createdAt.getTime() / 1000),
    expiresIn: pair.expiresIn,
  };
}

/**
 * The implicit grant (response_type=token): an access token without refresh token, for the consent page to put in
 * the redirect fragment (`access_token`, `token_type`, `expires_in`, `state`).
 */
export function issueImplicitToken(args: { db: Db; application: Pick<OAuthApplicationRow, 'id'>; userId: number; scopes: readonly string[] }) {
  return issueTokens(args.db, { applicationId: args.application.id, userId: args.userId, scopes: args.scopes, refresh: false });
}

export function tokenResponseBody(t: IssuedTokens) {
  return {
    access_token: t.accessToken,
    token_type: TOKEN_TYPE,
    expires_in: t.expiresIn,
    ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
    scope: t.scopes.join(' '),
    created_at: t.createdAt,
  };
}

export const tokenResponse = (c: Context, t: IssuedTokens) => c.json(tokenResponseBody(t), 200, NO_STORE);
