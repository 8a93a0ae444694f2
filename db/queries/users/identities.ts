import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { identities, users, type IdentityRow } from '../../schema/index.ts';

/** Whether another user holds this provider's uid (Identity's uniqueness: per provider, without regard to case). */
export async function externUidTaken(db: Db, provider: string, externUid: string, exceptUserId?: number) {
  if (externUid === '') return false;
  const rows = await db
    .select({ id: identities.id })
    .from(identities)
    .where(
      and(
        eq(identities.provider, provider),
        sql`lower(${identities.externUid}) = lower(${externUid})`,
        exceptUserId ? sql`${identities.userId} <> ${exceptUserId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** users.identities, the entities' copy of the user's rows, rewritten from them (after every change). */
async function refreshUserIdentities(tx: Db, userId: number) {
  await tx
    .update(users)
    .set({
      identities: sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('provider', i.provider, 'extern_uid', i.extern_uid) ORDER BY i.id), '[]'::jsonb) FROM ${identities} i WHERE i.user_id = ${userId})`,
    })
    .where(eq(users.id, userId));
}

/** The user's identity at `provider`, created or given this uid (Users::UpdateService#assign_identity). */
export async function saveIdentity(tx: Db, userId: number, provider: string, externUid: string) {
  await tx
    .insert(identities)
    .values({ userId, provider, externUid })
    .onConflictDoUpdate({ target: [identities.userId, identities.provider], set: { externUid, updatedAt: sql`now()` } });
  await refreshUserIdentities(tx, userId);
}

/** The user's identity at `provider`. */
export async function findIdentity(db: Db, userId: number, provider: string): Promise<IdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(identities)
    .where(and(eq(identities.userId, userId), eq(identities.provider, provider)))
    .limit(1);
  return row;
}

export async function deleteIdentity(tx: Db, identity: Pick<IdentityRow, 'id' | 'userId'>) {
  await tx.delete(identities).where(eq(identities.id, identity.id));
  await refreshUserIdentities(tx, identity.userId);
}

/** SQL: the user (`userId`, a column) has this provider's uid, without regard to case (Identity.with_extern_uid). */
export const hasIdentity = (userId: AnyColumn, provider: string, externUid: string) =>
  sql`EXISTS (SELECT 1 FROM ${identities} WHERE ${identities.userId} = ${userId} AND ${identities.provider} = ${provider} AND lower(${identities.externUid}) = lower(${externUid}))`;
