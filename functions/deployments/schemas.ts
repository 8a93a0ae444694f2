// Deployment inputs (GitLab 13.6 lib/api/deployments.rb) and Entities::Deployment.
import * as z from 'zod/mini';
import type { DeploymentWithEnvironment } from '../../db/queries/deployments.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { bool, dateTime, oneOf, pathId, schema, str } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';
import { toEnvironmentBasic } from '../environments/schemas.ts';

export const DeploymentPath = () => ({ deployment_id: pathId() });

/** Deployment.statuses. */
export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
/** What the API may set (the `values:` of POST and PUT). */
const SETTABLE = ['running', 'success', 'failed', 'canceled'] as const;

export const ListDeploymentsInput = schema(() =>
  z.object({
    ...paginationParams(),
    order_by: z._default(oneOf(['id', 'iid', 'created_at', 'updated_at', 'ref']), 'id'),
    sort: z._default(oneOf(['asc', 'desc']), 'asc'),
    updated_after: z.optional(dateTime()),
    updated_before: z.optional(dateTime()),
    environment: z.optional(str()),
    status: z.optional(z.enum(DEPLOYMENT_STATUSES)),
  }),
);

export const CreateDeploymentInput = schema(() => z.object({ environment: str(), sha: str(), ref: str(), tag: bool(), status: z.enum(SETTABLE) }));

export const UpdateDeploymentInput = schema(() => z.object({ status: z.enum(SETTABLE) }));

/** Entities::Deployment; `deployable` is the Job entity already built (null for deployments made by the API). */
export function toDeployment(d: DeploymentWithEnvironment, x: { user: UserRow | null; deployable: unknown; withEnvironment: boolean }, config: Config) {
  return {
    id: d.deployment.id,
    iid: d.deployment.iid,
    ref: d.deployment.ref,
    sha: d.deployment.sha,
    created_at: iso(d.deployment.createdAt),
    updated_at: iso(d.deployment.updatedAt),
    user: x.user ? toUserBasic(x.user, config) : null,
    ...(x.withEnvironment ? { environment: toEnvironmentBasic(d.environment) } : {}),
    deployable: x.deployable,
    status: d.deployment.status,
  };
}
