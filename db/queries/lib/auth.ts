// Authentication's lookups, shared infrastructure for functions/lib/auth.ts (which no domain's queries may serve): the
// personal and OAuth access token by digest with its user, the marks of their use, and the user by id or username
// (sudo, and the users domain's own lookups). The token domains (tokens, oauth) add their own reads and writes.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { ciBuilds, oauthAccessTokens, oauthApplications, personalAccessTokens, users, type UserRow } from '../../schema/index.ts';

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

/**
 * Records the first use of a token (ends the refresh grace of the token it replaced); with `activeUserId`, the
 * user's activity of the day in the same statement.
 */
export async function markOAuthTokenUsed(db: Db, id: number, activeUserId: number | null = null) {
  await db.execute(sql`WITH used AS (
      UPDATE ${oauthAccessTokens} SET first_used_at = now() WHERE ${oauthAccessTokens.id} = ${id} AND ${oauthAccessTokens.firstUsedAt} IS NULL
    ) ${activitySql(activeUserId)}`);
}

/** The token with this digest and its user, in one round trip. */
export async function findPersonalAccessTokenByDigest(db: Db, digest: string) {
  const [row] = await db
    .select({ token: personalAccessTokens, user: users })
    .from(personalAccessTokens)
    .innerJoin(users, eq(users.id, personalAccessTokens.userId))
    .where(eq(personalAccessTokens.tokenDigest, digest))
    .limit(1);
  return row;
}

/**
 * Records use at most every 10 minutes (GitLab's throttle), so a busy token does not write on every request; with
 * `activeUserId`, the user's activity of the day in the same statement (recordUserActivity).
 */
export async function touchPersonalAccessToken(db: Db, id: number, activeUserId: number | null = null) {
  await db.execute(sql`WITH touched AS (
      UPDATE ${personalAccessTokens} SET last_used_at = now()
      WHERE ${personalAccessTokens.id} = ${id} AND (${personalAccessTokens.lastUsedAt} IS NULL OR ${personalAccessTokens.lastUsedAt} < now() - interval '10 minutes')
    ) ${activitySql(activeUserId)}`);
}

/** Users::ActivityService's write (or nothing), as the last part of a statement. */
const activitySql = (userId: number | null) =>
  userId === null
    ? sql`SELECT 1`
    : sql`UPDATE ${users} SET last_activity_on = current_date WHERE ${users.id} = ${userId} AND (${users.lastActivityOn} IS NULL OR ${users.lastActivityOn} < current_date)`;

/** By numeric id, or by username without regard to case. */
export async function findUserByRef(db: Db, ref: string | number): Promise<UserRow | undefined> {
  const byId = typeof ref === 'number' || /^\d+$/.test(ref);
  // Ids beyond the integer column's range name nobody (and must not reach Postgres as an out-of-range error).
  if (byId && !(Number(ref) >= 1 && Number(ref) <= 2_147_483_647)) return undefined;
  const [row] = await db
    .select()
    .from(users)
    .where(byId ? eq(users.id, Number(ref)) : sql`lower(${users.username}) = lower(${ref})`)
    .limit(1);
  return row;
}

/** The user of the running CI job whose token has this digest (git's `gitlab-ci-token` login), with the job's project. */
export async function findRunningJobByTokenDigest(db: Db, digest: string) {
  const [row] = await db
    .select({ user: users, projectId: ciBuilds.projectId })
    .from(ciBuilds)
    .innerJoin(users, eq(users.id, ciBuilds.userId))
    .where(and(eq(ciBuilds.tokenDigest, digest), eq(ciBuilds.status, 'running')))
    .limit(1);
  return row;
}

/**
 * A personal access token that authenticates: not revoked and not past its expiry date. The SQL twin of the rule
 * functions/lib/auth.ts applies to the presented token (and tokens/schemas.ts shows as `active`).
 */
export const activePersonalAccessTokenSql = sql`(NOT ${personalAccessTokens.revoked} AND (${personalAccessTokens.expiresAt} IS NULL OR ${personalAccessTokens.expiresAt} > current_date))`;

/**
 * Marks the user active today (Users::ActivityService: at most once a day, so one UPDATE a user a day), for
 * GET /user/activities and the admin's `last_activity_on`.
 */
export async function recordUserActivity(db: Db, userId: number) {
  await db.execute(activitySql(userId));
}
