// A project's container expiration policy (one row per project, written on its first change).
import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { containerExpirationPolicies, type ContainerExpirationPolicyRow } from '../schema/index.ts';

type Values = Omit<ContainerExpirationPolicyRow, 'projectId' | 'createdAt' | 'updatedAt'>;

/** Writes the policy's values (inserting the row the first time): one statement, safe against a concurrent first write. */
export async function upsertContainerExpirationPolicy(db: Db, projectId: number, values: Values): Promise<ContainerExpirationPolicyRow> {
  const [row] = await db
    .insert(containerExpirationPolicies)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: containerExpirationPolicies.projectId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}

export async function findContainerExpirationPolicy(db: Db, projectId: number): Promise<ContainerExpirationPolicyRow | undefined> {
  const [row] = await db.select().from(containerExpirationPolicies).where(eq(containerExpirationPolicies.projectId, projectId));
  return row;
}
