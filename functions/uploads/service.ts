// Reading uploads back: who may see an avatar is who may see its owner (GitLab's UploadsController).
import { findAvatar, type AvatarOwner } from '../../db/queries/uploads/avatars.ts';
import type { RequestContext } from '../lib/context.ts';
import { isDomainError, notFound } from '../lib/errors.ts';
import { findGroup } from '../groups/service.ts';
import { findProject } from '../projects/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/**
 * The avatar at `/uploads/-/system/<kind>/avatar/<id>/<filename>`. User avatars are public; a group's or a
 * project's needs read access to it. Every miss (no such owner, a hidden one, no avatar, another file name) is the
 * same 404, so the answer says nothing about what exists.
 */
export async function readAvatar({ ctx, input }: Verb<AvatarOwner & { filename: string }>) {
  const owner: AvatarOwner = { kind: input.kind, id: input.id };
  try {
    if (owner.kind === 'group') await findGroup(ctx, { id: owner.id });
    if (owner.kind === 'project') await findProject(ctx, { id: owner.id });
  } catch (error) {
    if (isDomainError(error, 'not_found')) throw notFound();
    throw error;
  }
  const avatar = await findAvatar(ctx.db, owner);
  if (!avatar || avatar.filename !== input.filename) throw notFound();
  return avatar;
}
