// PUT /users/:id (administrators): the profile, credentials, identity and avatar in one transaction; a new password
// signs the user out everywhere.
import { deleteSessionsOfUser } from '../../db/queries/lib/sessions.ts';
import * as q from '../../db/queries/users.ts';
import type { RequestContext } from '../lib/context.ts';
import { hashPassword } from '../lib/crypto.ts';
import type { Output } from '../lib/validate.ts';
import { rethrowIdentityTaken } from './identities.ts';
import type { UpdateUserInput } from './schemas.ts';
import { instanceSettings } from '../application-settings/service.ts';
import { requireAdmin, findUserById } from './service.ts';
import { assertUnique, rethrowConflict, assertValid, profileValues, externalLimits, writeIdentityAndAvatar, stripUndefined } from './attributes.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** PUT /users/:id: 200 UserWithAdmin. */
export async function updateUser({ ctx, input }: Verb<{ id: number | null } & Output<typeof UpdateUserInput>>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  await assertUnique(ctx, input, user.id);
  await assertValid(ctx, input, user);
  const values = {
    ...stripUndefined(profileValues(input)),
    ...(input.external !== undefined && input.external !== user.external
      ? externalLimits(input, (await instanceSettings(ctx)).default_projects_limit as number)
      : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.password !== undefined ? { passwordHash: await hashPassword(input.password) } : {}),
  };
  try {
    return await ctx.transaction(async (tx) => {
      const updated = await q.updateUser(tx, user.id, values);
      // A new password signs the user out of every browser (GitLab), with the change or not at all.
      if (input.password !== undefined) await deleteSessionsOfUser(tx, user.id);
      return writeIdentityAndAvatar(tx, updated, input);
    });
  } catch (error) {
    rethrowIdentityTaken(error);
    rethrowConflict(error);
  }
}
