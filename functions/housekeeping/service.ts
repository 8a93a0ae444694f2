// The scheduled housekeeping (Worker `scheduled()`, every 15 minutes): deletion accepted through the API (202,
// `deleted_at` set, hidden at once) becomes final here, and memberships past their expiry date are removed.
import type { RequestContext } from '../lib/context.ts';
import { log } from '../lib/log.ts';
import {
  deleteExpiredMemberships,
  findPurgeableGroupIds,
  findPurgeableProjectIds,
  purgeProjectsAndGroups,
} from '../../db/queries/housekeeping.ts';

export interface HousekeepingResult {
  purgedProjects: number;
  purgedGroups: number;
  expiredMemberships: number;
}

/** No actor: the job runs as the system, on the database only. */
export async function runHousekeeping({ ctx }: { ctx: Pick<RequestContext, 'db' | 'transaction'> }): Promise<HousekeepingResult> {
  const purged = await ctx.transaction(async (tx) => {
    const groupIds = await findPurgeableGroupIds(tx);
    const projectIds = await findPurgeableProjectIds(tx, groupIds);
    await purgeProjectsAndGroups(tx, projectIds, groupIds);
    return { purgedProjects: projectIds.length, purgedGroups: groupIds.length };
  });
  const expiredMemberships = await deleteExpiredMemberships(ctx.db);
  const result = { ...purged, expiredMemberships };
  log('info', 'housekeeping done', { ...result });
  return result;
}
