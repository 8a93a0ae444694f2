// iid allocation (GitLab's InternalId): one upsert that increments the source's counter and returns the new value,
// so concurrent creates in one project (or group) never get the same iid. Call it inside the creating transaction:
// a rolled-back create then gives its iid back.
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { internalIds } from '../schema/index.ts';

export type IidSource = { projectId: number } | { namespaceId: number };

export async function nextIid(db: Db, usage: 'issues' | 'milestones', source: IidSource): Promise<number> {
  const [row] = await db
    .insert(internalIds)
    .values({ usage, lastValue: 1, ...('projectId' in source ? { projectId: source.projectId } : { namespaceId: source.namespaceId }) })
    .onConflictDoUpdate({ target: [internalIds.usage, internalIds.projectId, internalIds.namespaceId], set: { lastValue: sql`${internalIds.lastValue} + 1` } })
    .returning({ value: internalIds.lastValue });
  return row!.value;
}
