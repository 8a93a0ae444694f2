// Custom attributes (GitLab 13.6's CustomAttributesEndpoints): administrators list, read, set and delete key-value
// pairs on users, groups and projects. The owner is found first (404 for one that does not exist).
import * as q from '../../db/queries/custom-attributes.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { findGroup } from '../groups/service.ts';
import { findProject } from '../projects/service.ts';
import { findUser, requireAdmin } from '../users/service.ts';

export type Kind = q.AttributeOwner['kind'];
type Verb<I> = { ctx: RequestContext; input: { kind: Kind; ref: Ref | null } & I };

async function owner(ctx: RequestContext, kind: Kind, ref: Ref | null): Promise<q.AttributeOwner> {
  requireAdmin(ctx);
  if (kind === 'user') return { kind, id: (await findUser(ctx, ref)).id };
  if (kind === 'group') return { kind, id: (await findGroup(ctx, ref)).namespace.id };
  return { kind, id: (await findProject(ctx, ref)).project.id };
}

export async function listAttributes({ ctx, input }: Verb<object>) {
  return q.listAttributes(ctx.db, await owner(ctx, input.kind, input.ref));
}

export async function getAttribute({ ctx, input }: Verb<{ key: string }>) {
  const found = await q.findAttribute(ctx.db, await owner(ctx, input.kind, input.ref), input.key);
  if (!found) throw recordNotFound();
  return found;
}

/** CustomAttribute validates presence of key and value. */
export async function setAttribute({ ctx, input }: Verb<{ key: string; value: string }>) {
  const o = await owner(ctx, input.kind, input.ref);
  if (!input.value.trim()) throw validationFailed({ value: ["can't be blank"] });
  return q.upsertAttribute(ctx.db, o, input.key, input.value);
}

export async function deleteAttribute({ ctx, input }: Verb<{ key: string }>) {
  if (!(await q.deleteAttribute(ctx.db, await owner(ctx, input.kind, input.ref), input.key))) throw recordNotFound();
}
