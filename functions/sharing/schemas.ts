// Sharing inputs and GitLab 13.6's Entities::ProjectGroupLink.
import type { ProjectGroupLinkRow } from '../../db/schema/index.ts';
import * as z from 'zod/mini';
import { dateParam, intIn, schema } from '../lib/validate.ts';
import { lookupId } from '../users/schemas.ts';

/** POST /projects/:id/share: Gitlab::Access.values (no Owner), as ProjectGroupLink allows. */
export const ShareProjectInput = schema(() =>
  z.object({
    group_id: lookupId(),
    group_access: intIn([10, 20, 30, 40]),
    expires_at: z.optional(z.nullable(dateParam())),
  }),
);

/** POST /groups/:id/share: Gitlab::Access.all_values (Owner too), as GroupGroupLink allows. */
export const ShareGroupInput = schema(() =>
  z.object({
    group_id: lookupId(),
    group_access: intIn([10, 20, 30, 40, 50]),
    expires_at: z.optional(z.nullable(dateParam())),
  }),
);

/** Entities::ProjectGroupLink */
export const toProjectGroupLink = (l: ProjectGroupLinkRow) => ({
  id: l.id,
  project_id: l.projectId,
  group_id: l.groupId,
  group_access: l.groupAccess,
  expires_at: l.expiresAt,
});
