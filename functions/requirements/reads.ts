// Batched requirement reads for GraphQL's per-request loaders (loaders.ts).
import { findTestReportsOfRequirements } from '../../db/queries/requirements.ts';
import type { RequirementTestReportRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';

/** The test reports of each requirement (already found readable), oldest first: one statement for a page. */
export async function testReportsOf(ctx: RequestContext, requirementIds: readonly number[]): Promise<RequirementTestReportRow[][]> {
  const rows = await findTestReportsOfRequirements(ctx.db, requirementIds, 'asc');
  return requirementIds.map((id) => rows.filter((r) => r.requirementId === id));
}
