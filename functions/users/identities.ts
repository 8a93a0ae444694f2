// Identities: a user's accounts at external authentication providers, which administrators set through
// `provider`/`extern_uid` on POST and PUT /users (Users::BuildService#build_identity, UpdateService#assign_identity);
// delete-identity.ts removes them.
import * as q from '../../db/queries/users/identities.ts';
import type { Db } from '../../db/client.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, validationFailed } from '../lib/errors.ts';

export interface IdentityInput {
  provider?: string | undefined;
  extern_uid?: string | undefined;
}

// The User model's autosaved association reports its identity's errors under `identities.<attribute>`.
const taken = () => ({ 'identities.extern_uid': ['has already been taken'] });

/**
 * Identity's validations for the requested identity, as the user's errors: a provider must be named, and another
 * user of that provider must not hold the uid (without regard to case; a blank uid claims nothing).
 */
export async function identityErrors(ctx: RequestContext, input: IdentityInput, userId?: number): Promise<Record<string, string[]>> {
  if (input.provider === undefined || input.extern_uid === undefined) return {};
  if (input.provider.trim() === '') return { 'identities.provider': ["can't be blank"] };
  return (await q.externUidTaken(ctx.db, input.provider, input.extern_uid, userId)) ? taken() : {};
}

/** Writes the requested identity (if any) in the caller's transaction: one per provider, its uid replaced. */
export async function writeIdentity(tx: Db, userId: number, input: IdentityInput) {
  if (input.provider === undefined || input.extern_uid === undefined) return;
  await q.saveIdentity(tx, userId, input.provider, input.extern_uid);
}

/** A uid taken by a request that raced past `identityErrors`: the unique index's answer, as GitLab's. */
export function rethrowIdentityTaken(error: unknown) {
  if (isUniqueViolation(error, 'identities_provider_extern_uid')) throw validationFailed(taken());
}
