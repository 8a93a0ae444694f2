// The OAuth provider's statements. The token endpoint's budget is 3 round trips, so each grant is one lookup plus
// one data-modifying CTE: a single statement is atomic on its own (no BEGIN/COMMIT round trips), and the row it
// updates is the lock that serialises concurrent exchanges (PostgreSQL re-checks the WHERE clause of an UPDATE
// on the newest row version after waiting for a concurrent writer: READ COMMITTED "EvalPlanQual").
// Raw SQL is used where Drizzle's builder cannot express a data-modifying CTE; every value is a bound parameter.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { oauthAccessTokens, oauthGrants } from '../schema/index.ts';
import { uncountEventsSql, type CountedEvent } from './lib/rate-limits.ts';
import { rows, textArray } from './lib/raw.ts';

export interface ClientRow {
  app_id: number;
  uid: string;
  secret_digest: string;
  confidential: boolean;
  app_scopes: string[];
}

const CLIENT_COLUMNS = sql`a.id AS app_id, a.uid, a.secret_digest, a.confidential, a.scopes AS app_scopes`;

export async function insertGrant(db: Db, values: typeof oauthGrants.$inferInsert) {
  const [row] = await db.insert(oauthGrants).values(values).returning();
  return row!;
}

// ---- authorization_code ----

export interface CodeLookup extends ClientRow {
  grant_id: number | null;
  grant_app_id: number | null;
  user_id: number | null;
  redirect_uri: string | null;
  scopes: string[] | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  consumed: boolean | null;
  grant_revoked: boolean | null;
  expired: boolean | null;
  user_state: string | null;
}

/** The client (by uid) and the grant (by code digest, any client), in one round trip. Null when the client is unknown. */
export async function lookupClientAndCode(db: Db, uid: string, codeDigest: string): Promise<CodeLookup | undefined> {
  const [row] = await rows<CodeLookup>(
    db,
    sql`SELECT ${CLIENT_COLUMNS}, g.id AS grant_id, g.application_id AS grant_app_id, g.user_id, g.redirect_uri, g.scopes,
          g.code_challenge, g.code_challenge_method, g.consumed_at IS NOT NULL AS consumed, g.revoked_at IS NOT NULL AS grant_revoked,
          g.expires_at <= now() AS expired, u.state AS user_state
        FROM oauth_applications a
        LEFT JOIN oauth_grants g ON g.code_digest = ${codeDigest}
        LEFT JOIN users u ON u.id = g.user_id
        WHERE a.uid = ${uid} LIMIT 1`,
  );
  return row;
}

export interface IssuedRow {
  id: number;
  created_at: string;
}

export interface NewTokens {
  tokenDigest: string;
  refreshTokenDigest: string | null;
  expiresIn: number;
  lineage: string;
}

/**
 * A CTE that takes back the brute-force counts of a request when its statement issued tokens (`issued`: a condition
 * on the statement's other CTEs), so a success costs no round trip of its own. Nothing reads it, so PostgreSQL runs
 * it after the main statement: the counters are locked after the token rows, in every statement that locks both.
 */
const releasing = (counted: readonly CountedEvent[], issued: SQL) => (counted.length ? sql`, released AS (${uncountEventsSql(counted, issued)})` : sql``);

/**
 * Consumes the code and inserts its token set in one statement, taking back the request's counts (`release`). No row
 * back: the code was consumed, revoked or expired in the meantime (a concurrent exchange won).
 */
export async function consumeCodeAndIssue(db: Db, grantId: number, t: NewTokens, release: readonly CountedEvent[] = []): Promise<IssuedRow | undefined> {
  const [row] = await rows<IssuedRow>(
    db,
    sql`WITH g AS (
          UPDATE oauth_grants SET consumed_at = now()
          WHERE id = ${grantId} AND consumed_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING id, application_id, user_id, scopes
        )${releasing(release, sql`EXISTS (SELECT 1 FROM g)`)}
        INSERT INTO oauth_access_tokens (token_digest, refresh_token_digest, application_id, user_id, scopes, expires_in, grant_id, lineage)
        SELECT ${t.tokenDigest}, ${t.refreshTokenDigest}, g.application_id, g.user_id, g.scopes, ${t.expiresIn}, g.id, ${t.lineage} FROM g
        RETURNING id, extract(epoch FROM created_at)::bigint::text AS created_at`,
  );
  return row;
}

/** A replayed code: the grant is marked revoked and every token descending from it is revoked. */
export async function revokeGrantLineage(db: Db, grantId: number) {
  await db.execute(
    sql`WITH g AS (UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${grantId} RETURNING id)
        UPDATE oauth_access_tokens SET revoked_at = now()
        WHERE revoked_at IS NULL AND lineage IN (SELECT lineage FROM oauth_access_tokens WHERE grant_id IN (SELECT id FROM g))`,
  );
}

// ---- refresh_token ----

export interface RefreshLookup extends ClientRow {
  token_id: number | null;
  token_app_id: number | null;
  user_id: number | null;
  scopes: string[] | null;
  lineage: string | null;
  grant_id: number | null;
  revoked: boolean | null;
  /** revoked_at in microseconds since the epoch: the version stamp the rotation statement re-checks. */
  revoked_stamp: string | null;
  retry_scopes: string[] | null;
  user_state: string | null;
}

/**
 * `retry_scopes`: while the token (alias `t`) has been rotated out but may still be presented as a retry of that
 * exchange, the scopes of the set that replaced it; null otherwise. The conditions are the refresh grant's rule: a
 * live successor, no successor ever used, and less than `graceSeconds` since the first rotation.
 */
const retryScopes = (graceSeconds: number) =>
  sql`(SELECT c.scopes FROM oauth_access_tokens c
        WHERE c.previous_token_id = t.id AND c.revoked_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM oauth_access_tokens u WHERE u.previous_token_id = t.id AND u.first_used_at IS NOT NULL)
          AND (SELECT min(f.created_at) FROM oauth_access_tokens f WHERE f.previous_token_id = t.id) > now() - make_interval(secs => ${graceSeconds})
        LIMIT 1) AS retry_scopes`;

export async function lookupClientAndRefreshToken(db: Db, uid: string, refreshDigest: string, retryGraceSeconds: number): Promise<RefreshLookup | undefined> {
  const [row] = await rows<RefreshLookup>(
    db,
    sql`SELECT ${CLIENT_COLUMNS}, t.id AS token_id, t.application_id AS token_app_id, t.user_id, t.scopes, t.lineage, t.grant_id,
          t.revoked_at IS NOT NULL AS revoked,
          floor(extract(epoch FROM t.revoked_at) * 1000000)::bigint::text AS revoked_stamp,
          ${retryScopes(retryGraceSeconds)},
          u.state AS user_state
        FROM oauth_applications a
        LEFT JOIN oauth_access_tokens t ON t.refresh_token_digest = ${refreshDigest}
        LEFT JOIN users u ON u.id = t.user_id
        WHERE a.uid = ${uid} LIMIT 1`,
  );
  return row;
}

/**
 * Rotates: revokes the old access token (and, for a retry, the unused set the earlier rotation issued), records the
 * old token's first use, and inserts the new set with the same lineage. The UPDATE of the old row only matches while
 * its `revoked_at` is still what the lookup saw, so of concurrent refreshes with one token exactly one inserts; the
 * others get no row back. A retry inserts only if it revoked the successor itself: a successor used or rotated by a
 * concurrent request fails the re-checked `first_used_at IS NULL AND revoked_at IS NULL`, and nothing is issued, so
 * the lineage never has two live sets. When it issues, it takes back the request's counts (`release`).
 */
export async function rotateRefreshToken(
  db: Db,
  args: { tokenId: number; revokedStamp: string | null; retry: boolean; scopes: readonly string[]; release?: readonly CountedEvent[] } & NewTokens,
): Promise<IssuedRow | undefined> {
  const stampMatches =
    args.revokedStamp === null ? sql`revoked_at IS NULL` : sql`floor(extract(epoch FROM revoked_at) * 1000000)::bigint::text = ${args.revokedStamp}`;
  // The INSERT reads `superseded` in both cases (a first rotation has nothing to supersede), so every statement locks
  // the token rows (the old one, then its successor) before the counters `releasing` takes back.
  const issues = args.retry ? sql`EXISTS (SELECT 1 FROM superseded)` : sql`NOT EXISTS (SELECT 1 FROM superseded)`;
  const [row] = await rows<IssuedRow>(
    db,
    sql`WITH old AS (
          UPDATE oauth_access_tokens SET revoked_at = clock_timestamp(), first_used_at = coalesce(first_used_at, now())
          WHERE id = ${args.tokenId} AND ${stampMatches}
            AND NOT EXISTS (SELECT 1 FROM oauth_access_tokens c WHERE c.previous_token_id = ${args.tokenId} AND c.first_used_at IS NOT NULL)
          RETURNING id, application_id, user_id, grant_id, lineage
        ), superseded AS (
          UPDATE oauth_access_tokens c SET revoked_at = now() FROM old
          WHERE c.previous_token_id = old.id AND c.revoked_at IS NULL AND c.first_used_at IS NULL
          RETURNING c.id
        )${releasing(args.release ?? [], sql`EXISTS (SELECT 1 FROM old) AND ${issues}`)}
        INSERT INTO oauth_access_tokens (token_digest, refresh_token_digest, application_id, user_id, scopes, expires_in, grant_id, lineage, previous_token_id)
        SELECT ${args.tokenDigest}, ${args.refreshTokenDigest}, old.application_id, old.user_id, ${textArray(args.scopes)}, ${args.expiresIn},
          old.grant_id, old.lineage, old.id FROM old
        WHERE ${issues}
        RETURNING id, extract(epoch FROM created_at)::bigint::text AS created_at`,
  );
  return row;
}

/**
 * Revokes every token descending from one authorization: refresh-token reuse (security-bar §7.1) and revocation
 * (RFC 7009 §2.1: revoking a refresh token SHOULD invalidate the access tokens of the same grant).
 */
export async function revokeLineage(db: Db, lineage: string) {
  await db
    .update(oauthAccessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(oauthAccessTokens.lineage, lineage), isNull(oauthAccessTokens.revokedAt)));
}

/**
 * Doorkeeper's `matching_token?`: the user already holds an unrevoked token of this application with exactly these
 * scopes (expired access tokens count: their refresh token keeps the authorization alive).
 */
export async function hasMatchingToken(db: Db, applicationId: number, userId: number, scopes: readonly string[]) {
  const [row] = await rows<{ found: boolean }>(
    db,
    sql`SELECT EXISTS (
          SELECT 1 FROM oauth_access_tokens
          WHERE application_id = ${applicationId} AND user_id = ${userId} AND revoked_at IS NULL
            AND scopes @> ${textArray(scopes)} AND scopes <@ ${textArray(scopes)}
        ) AS found`,
  );
  return row?.found === true;
}

// ---- password grant, implicit ----

export async function insertTokens(db: Db, values: typeof oauthAccessTokens.$inferInsert) {
  const [row] = await db.insert(oauthAccessTokens).values(values).returning();
  return row!;
}

// ---- revoke, introspect ----

/**
 * A token by the digest of its access token or of its refresh token, with its application's uid and its user;
 * `retry_scopes` (see retryScopes) when a grace is given.
 */
export async function findTokenByAnyDigest(db: Db, digest: string, hint: 'access_token' | 'refresh_token' | undefined, retryGraceSeconds?: number) {
  const byAccess = sql`t.token_digest = ${digest}`;
  const byRefresh = sql`t.refresh_token_digest = ${digest}`;
  const where = hint === 'refresh_token' ? sql`${byRefresh} OR ${byAccess}` : sql`${byAccess} OR ${byRefresh}`;
  const found = await rows<{
    id: number;
    application_id: number | null;
    token_digest: string;
    refresh_token_digest: string | null;
    scopes: string[];
    lineage: string;
    revoked_stamp: string | null;
    created_at: string;
    expires_in: number | null;
    expired: boolean;
    revoked: boolean;
    retry_scopes: string[] | null;
    app_uid: string | null;
    username: string;
    user_state: string;
  }>(
    db,
    sql`SELECT t.id, t.application_id, t.token_digest, t.refresh_token_digest, t.scopes, t.lineage,
          floor(extract(epoch FROM t.revoked_at) * 1000000)::bigint::text AS revoked_stamp,
          extract(epoch FROM t.created_at)::bigint::text AS created_at, t.expires_in,
          (t.expires_in IS NOT NULL AND t.created_at + make_interval(secs => t.expires_in) <= now()) AS expired,
          (t.revoked_at IS NOT NULL AND t.revoked_at <= now()) AS revoked,
          ${retryGraceSeconds === undefined ? sql`NULL::text[] AS retry_scopes` : retryScopes(retryGraceSeconds)},
          a.uid AS app_uid, u.username, u.state AS user_state
        FROM oauth_access_tokens t JOIN users u ON u.id = t.user_id LEFT JOIN oauth_applications a ON a.id = t.application_id
        WHERE ${where} LIMIT 2`,
  );
  return found.find((r) => (hint === 'refresh_token' ? r.refresh_token_digest === digest : r.token_digest === digest)) ?? found[0];
}

/** Revokes every OAuth token of a user, and the authorization codes not yet exchanged. */
export async function revokeOAuthOfUser(db: Db, userId: number) {
  await db.execute(
    sql`WITH codes AS (UPDATE oauth_grants SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL AND consumed_at IS NULL)
        UPDATE oauth_access_tokens SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`,
  );
}

/** Revokes every token of the user for the application and every code not yet exchanged. Returns tokens revoked. */
export async function revokeAuthorization(db: Db, applicationId: number, userId: number) {
  const tokens = await db
    .update(oauthAccessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(oauthAccessTokens.applicationId, applicationId), eq(oauthAccessTokens.userId, userId), isNull(oauthAccessTokens.revokedAt)))
    .returning({ id: oauthAccessTokens.id });
  await db
    .update(oauthGrants)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(oauthGrants.applicationId, applicationId), eq(oauthGrants.userId, userId), isNull(oauthGrants.consumedAt), isNull(oauthGrants.revokedAt)));
  return tokens.length;
}
