// OAuth applications (clients) for the admin API and the applications pages: typed queries, no HTTP.
import { and, asc, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { oauthAccessTokens, oauthApplications } from '../schema/index.ts';

export async function insertApplication(db: Db, values: typeof oauthApplications.$inferInsert) {
  const [row] = await db.insert(oauthApplications).values(values).returning();
  return row!;
}

/** Every application (admin API), or one owner's (applications page); oldest first. */
export function listApplications(db: Db, filter: { ownerId?: number | undefined }, limit: number, offset: number) {
  return db
    .select()
    .from(oauthApplications)
    .where(filter.ownerId === undefined ? undefined : eq(oauthApplications.ownerId, filter.ownerId))
    .orderBy(asc(oauthApplications.id))
    .limit(limit)
    .offset(offset);
}

export async function countApplications(db: Db, filter: { ownerId?: number | undefined }, limit: number) {
  const inner = db
    .select({ id: oauthApplications.id })
    .from(oauthApplications)
    .where(filter.ownerId === undefined ? undefined : eq(oauthApplications.ownerId, filter.ownerId))
    .limit(limit)
    .as('t');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
  return row?.n ?? 0;
}

export async function findApplicationById(db: Db, id: number) {
  const [row] = await db.select().from(oauthApplications).where(eq(oauthApplications.id, id)).limit(1);
  return row;
}

export async function findApplicationByUid(db: Db, uid: string) {
  const [row] = await db.select().from(oauthApplications).where(eq(oauthApplications.uid, uid)).limit(1);
  return row;
}

/** Deletes an application (when `ownerId` is given, only if that user owns it); grants and tokens go by FK cascade. */
export async function deleteApplication(db: Db, id: number, ownerId?: number) {
  const rows = await db
    .delete(oauthApplications)
    .where(and(eq(oauthApplications.id, id), ownerId === undefined ? undefined : eq(oauthApplications.ownerId, ownerId)))
    .returning({ id: oauthApplications.id });
  return rows.length > 0;
}

export async function updateApplicationSecret(db: Db, id: number, ownerId: number, secretDigest: string) {
  const [row] = await db
    .update(oauthApplications)
    .set({ secretDigest, updatedAt: sql`now()` })
    .where(and(eq(oauthApplications.id, id), eq(oauthApplications.ownerId, ownerId)))
    .returning();
  return row;
}

/** Live (not revoked, not expired) tokens of this user, as a condition. */
const liveTokenOf = (userId: number) =>
  and(
    eq(oauthAccessTokens.userId, userId),
    isNull(oauthAccessTokens.revokedAt),
    or(isNull(oauthAccessTokens.expiresIn), gt(sql`${oauthAccessTokens.createdAt} + make_interval(secs => ${oauthAccessTokens.expiresIn})`, sql`now()`)),
  );

/** Applications the user has live tokens for, with the scopes granted and when first authorized. */
export function listAuthorizedApplications(db: Db, userId: number) {
  return db
    .select({
      id: oauthApplications.id,
      name: oauthApplications.name,
      authorizedAt: sql<Date>`min(${oauthAccessTokens.createdAt})`.mapWith((v) => new Date(v)),
      scopes: sql<string[]>`array_agg(DISTINCT s.scope ORDER BY s.scope)`,
    })
    .from(oauthAccessTokens)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthAccessTokens.applicationId))
    .innerJoin(sql`unnest(${oauthAccessTokens.scopes}) AS s(scope)`, sql`true`)
    .where(liveTokenOf(userId))
    .groupBy(oauthApplications.id, oauthApplications.name)
    .orderBy(desc(oauthApplications.id));
}
