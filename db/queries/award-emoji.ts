// Award emoji of one awardable (an issue, a note or a snippet): the page with its users in one statement, one award,
// and the writes. Uniqueness (one name per user and awardable) is the table's constraint, not a check here.
import { and, asc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { awardEmoji, users, type AwardableType } from '../schema/index.ts';

export interface AwardableKey {
  type: AwardableType;
  id: number;
}

/** The constraint a second award of the same name by the same user trips. */
export const AWARD_UNIQUE = 'award_emoji_awardable_user_name_key';

const ofAwardable = (a: AwardableKey) => and(eq(awardEmoji.awardableType, a.type), eq(awardEmoji.awardableId, a.id));

const view = (db: Db, total: SQL<number | null> = sql<number | null>`NULL`) =>
  db
    .select({ award: awardEmoji, user: users, total: total.mapWith((v) => (v == null ? null : Number(v))) })
    .from(awardEmoji)
    .innerJoin(users, eq(users.id, awardEmoji.userId))
    .$dynamic();

export type AwardView = Awaited<ReturnType<ReturnType<typeof view>['execute']>>[number];

/** A page of the awardable's awards (oldest first) with their users and the total (capped at `countLimit`). */
export async function listAwards(db: Db, awardable: AwardableKey, limit: number, offset: number, countLimit: number) {
  const where = ofAwardable(awardable);
  const total = sql<number | null>`(SELECT count(*) FROM (SELECT 1 FROM ${awardEmoji} WHERE ${where} LIMIT ${countLimit}) counted)`;
  return view(db, total).where(where).orderBy(asc(awardEmoji.id)).limit(limit).offset(offset);
}

export async function countAwards(db: Db, awardable: AwardableKey, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
    db
      .select({ one: sql`1` })
      .from(awardEmoji)
      .where(ofAwardable(awardable))
      .limit(limit)
      .as('counted'),
  );
  return row?.n ?? 0;
}

/** One award of the awardable (with its user), by id. */
export async function findAward(db: Db, awardable: AwardableKey, id: number): Promise<AwardView | undefined> {
  const [row] = await view(db).where(and(ofAwardable(awardable), eq(awardEmoji.id, id)));
  return row;
}

/** Inserts the award; a duplicate raises the unique violation on AWARD_UNIQUE (the caller maps it). */
export async function insertAward(db: Db, values: { awardable: AwardableKey; userId: number; name: string }) {
  const [row] = await db
    .insert(awardEmoji)
    .values({ name: values.name, userId: values.userId, awardableType: values.awardable.type, awardableId: values.awardable.id })
    .returning();
  return row!;
}

export async function deleteAward(db: Db, id: number) {
  await db.delete(awardEmoji).where(eq(awardEmoji.id, id));
}

/** The awards of several awardables (oldest first) with their users, in one statement (GraphQL's per-page loader). */
export async function findAwardsOfAwardables(db: Db, keys: readonly AwardableKey[]): Promise<AwardView[]> {
  if (!keys.length) return [];
  const byType = new Map<AwardableType, number[]>();
  for (const k of keys) byType.set(k.type, [...(byType.get(k.type) ?? []), k.id]);
  const where = or(...[...byType].map(([type, ids]) => and(eq(awardEmoji.awardableType, type), inArray(awardEmoji.awardableId, [...new Set(ids)]))));
  return view(db).where(where).orderBy(asc(awardEmoji.id));
}

/** The user's award of this name on the awardable (with its user), if any. */
export async function findUserAward(db: Db, awardable: AwardableKey, userId: number, name: string): Promise<AwardView | undefined> {
  const [row] = await view(db).where(and(ofAwardable(awardable), eq(awardEmoji.userId, userId), eq(awardEmoji.name, name)));
  return row;
}

/**
 * The award emoji of awardables being deleted: one by id, or those a subquery selects. The awardable's own delete calls
 * it in its transaction (awardable_id is polymorphic: no foreign key removes them).
 */
export async function deleteAwardsOf(tx: Db, type: AwardableType, ids: number | SQLWrapper) {
  await tx
    .delete(awardEmoji)
    .where(and(eq(awardEmoji.awardableType, type), typeof ids === 'number' ? eq(awardEmoji.awardableId, ids) : inArray(awardEmoji.awardableId, ids)));
}
