// POST /users (administrators): the user with its personal namespace, identity and avatar in one transaction.
import * as q from '../../db/queries/users.ts';
import type { RequestContext } from '../lib/context.ts';
import { hashPassword, randomToken } from '../lib/crypto.ts';
import type { Output } from '../lib/validate.ts';
import { rethrowIdentityTaken } from './identities.ts';
import type { CreateUserInput } from './schemas.ts';
import { instanceSettings } from '../application-settings/service.ts';
import { requireAdmin } from './service.ts';
import { assertUnique, rethrowConflict, assertValid, profileValues, externalLimits, writeIdentityAndAvatar, stripUndefined } from './attributes.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** POST /users: 201 UserWithAdmin. A missing password is random (force_random_password / reset_password). */
export async function createUser({ ctx, input }: Verb<Output<typeof CreateUserInput>>) {
  requireAdmin(ctx);
  await assertUnique(ctx, input);
  await assertValid(ctx, input);
  // The instance's defaults (ApplicationSetting: user_default_external, default_projects_limit).
  const instance = await instanceSettings(ctx);
  const external = input.external ?? (instance.user_default_external as boolean);
  const projectsLimit = instance.default_projects_limit as number;
  const passwordHash = await hashPassword(input.password ?? randomToken());
  const confirmed = input.skip_confirmation ?? (input.confirm === undefined ? false : !input.confirm);
  try {
    return await ctx.transaction(async (tx) => {
      const user = await q.insertUserWithNamespace(tx, {
        projectsLimit,
        ...stripUndefined(profileValues(input)),
        external,
        ...externalLimits({ ...input, external }, projectsLimit),
        username: input.username,
        name: input.name,
        email: input.email,
        passwordHash,
        confirmedAt: confirmed ? new Date() : null,
      });
      return writeIdentityAndAvatar(tx, user, input);
    });
  } catch (error) {
    rethrowIdentityTaken(error);
    rethrowConflict(error);
  }
}
