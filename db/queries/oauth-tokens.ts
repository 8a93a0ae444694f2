// OAuth access-token reads used by authentication (the grants and endpoints add their own writes).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { oauthAccessTokens, oauthApplications, users } from '../schema/index.ts';

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

/** Records the first use of a token (ends the refresh grace of the token it replaced). */
export async function markOAuthTokenUsed(db: Db, id: number) {
  await db.update(oauthAccessTokens).set({ firstUsedAt: sql`now()` }).where(and(eq(oauthAccessTokens.id, id), isNull(oauthAccessTokens.firstUsedAt)));
}
