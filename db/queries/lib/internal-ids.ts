// iid allocation (GitLab's InternalId): one upsert that increments the source's counter and returns the new value,
// so concurrent creates in one project (or group) never get the same iid. Call it inside the creating transaction:
// a rolled-back create then gives its iid back.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { internalIds } from '../../schema/index.ts';

/** What the counters count (GitLab's InternalId usages). */
export type IidUsage = 'issues' | 'milestones' | 'merge_requests' | 'epics' | 'requirements' | 'alert_management_alerts' | 'ci_pipelines' | 'deployments';

export type IidSource = { projectId: number } | { namespaceId: number };

export async function nextIid(db: Db, usage: IidUsage, source: IidSource): Promise<number> {
  const [row] = await nextIidStatement(db, usage, source);
  return row!.value;
}

/**
 * nextIid as a statement for a batch (`ctx.batch`); later statements of the batch read the value with
 * `currentIidSql` (the upsert holds the counter's row lock until the batch commits, so the value is this batch's).
 */
export function nextIidStatement(db: Db, usage: IidUsage, source: IidSource) {
  return db
    .insert(internalIds)
    .values({ usage, lastValue: 1, ...('projectId' in source ? { projectId: source.projectId } : { namespaceId: source.namespaceId }) })
    .onConflictDoUpdate({ target: [internalIds.usage, internalIds.projectId, internalIds.namespaceId], set: { lastValue: sql`${internalIds.lastValue} + 1` } })
    .returning({ value: internalIds.lastValue });
}

/** The counter nextIidStatement just advanced, read in the same batch. */
export const currentIidSql = (usage: IidUsage, source: IidSource) =>
  sql<number>`(SELECT ${internalIds.lastValue} FROM ${internalIds} WHERE ${internalIds.usage} = ${usage} AND ${
    'projectId' in source
      ? sql`${internalIds.projectId} = ${source.projectId} AND ${internalIds.namespaceId} IS NULL`
      : sql`${internalIds.namespaceId} = ${source.namespaceId} AND ${internalIds.projectId} IS NULL`
  })`;
