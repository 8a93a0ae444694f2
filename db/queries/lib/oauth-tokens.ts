// OAuth access-token reads used by authentication (the grants and endpoints add their own writes).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { oauthAccessTokens, oauthApplications, users } from '../../schema/index.ts';

/** The access token with this digest, its user and application uid, in one round trip. */
export async function findOAuthTokenByDigest(db: Db, digest: string) {
  const [row] = await db
    .select({ token: oauthAccessTokens, user: users, applicationUid: oauthApplications.uid })
    .from(oauthAccessTokens)
    .innerJoin(users, eq(users.id, oauthAccessTokens.userId))
    .leftJoin(oauthApplications, eq(oauthApplications.id, oauthAccessTokens.applicationId))
    .where(eq(oauthAccessTokens.tokenDigest, digest))
    .limit(1);
  return row;
}

/** Revokes every OAuth token of a user, and the authorization codes not yet exchanged. */
export async function revokeOAuthOfUser(db: Db, userId: number) {
  await db.execute(
    sql`WITH codes AS (UPDATE oauth_grants SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL AND consumed_at IS NULL)
        UPDATE oauth_access_tokens SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`,
  );
}

/** Records the first use of a token (ends the refresh grace of the token it replaced). */
export async function markOAuthTokenUsed(db: Db, id: number) {
  await db.update(oauthAccessTokens).set({ firstUsedAt: sql`now()` }).where(and(eq(oauthAccessTokens.id, id), isNull(oauthAccessTokens.firstUsedAt)));
}
