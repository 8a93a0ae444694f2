// DELETE /users/:id/identities/:provider, beside the service (which the identity rules must not import).
import { deleteIdentity as deleteRow, findIdentity } from '../../db/queries/users/identities.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, notFound } from '../lib/errors.ts';
import { findUserById, requireAdmin } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/**
 * DELETE /users/:id/identities/:provider (administrators): 204, or 404 `User Not Found` / `Identity Not Found`;
 * `If-Unmodified-Since` older than the identity is 412 (destroy_conditionally!).
 */
export async function deleteIdentity({ ctx, input }: Verb<{ id: number | null; provider: string; ifUnmodifiedSince?: string | undefined }>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  const identity = await findIdentity(ctx.db, user.id, input.provider);
  if (!identity) throw notFound('Identity');
  assertUnmodifiedSince(input.ifUnmodifiedSince, identity.updatedAt);
  await ctx.transaction((tx) => deleteRow(tx, identity));
}
