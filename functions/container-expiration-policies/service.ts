// GraphQL's updateContainerExpirationPolicy (ContainerExpirationPolicies::UpdateService: destroy_container_image,
// developers and above); REST's `container_expiration_policy_attributes` go through the projects service. Both use
// prepare.ts (one rule set), and the row is written in one statement with next_run_at recomputed.
import type { RequestContext } from '../lib/context.ts';
import { assertCan } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { preparePolicy, storePolicy, type PolicyChanges } from './prepare.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GraphQL's updateContainerExpirationPolicy: developers and above of the project (resource error otherwise). */
export async function updateContainerExpirationPolicy({ ctx, input }: Verb<{ projectPath: string; changes: PolicyChanges }>) {
  const project = await findProject(ctx, { path: input.projectPath });
  assertCan(ctx.actor, 'project:destroy_container_image', projectFacts(project));
  return storePolicy(ctx.db, project.project.id, preparePolicy(project, input.changes));
}
