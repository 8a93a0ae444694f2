// Protected tags, as GitLab 13.6's lib/api/protected_tags.rb (`before { authorize_admin_project }`: maintainers,
// for reads too) with ProtectedTags::CreateService and destroy_conditionally!. The rule they feed (who may create a
// matching tag, that none is deleted) is push-access.ts's and tags.ts's; this file only keeps the rows.
import { deleteProtectedTag, findProtectedTag, insertProtectedTag, listProtectedTags } from '../../../db/queries/repositories/protected-tags.ts';
import type { RequestContext } from '../../lib/context.ts';
import { assertUnmodifiedSince, recordNotFound, unprocessable } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { AccessLevel } from '../../lib/policy.ts';
import { adminProjectId } from '../service.ts';
import type { ProtectTagParams } from './tag-schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GET protected_tags: every protection of the project, by id. */
export async function listTagProtections({ ctx, input }: Verb<{ project: Ref | null }>) {
  return listProtectedTags(ctx.db, await adminProjectId(ctx, input.project));
}

/** GET protected_tags/:name: the exact name (a pattern by its text); 404 `Not found` (find_by!). */
export async function getTagProtection({ ctx, input }: Verb<{ project: Ref | null; name: string }>) {
  const row = await findProtectedTag(ctx.db, await adminProjectId(ctx, input.project), input.name);
  if (!row) throw recordNotFound();
  return row;
}

/**
 * POST protected_tags: ProtectedTags::CreateService saves the record; its validation failures are the full messages
 * as an array with 422 (render_api_error!): "Name can't be blank" (ProtectedRef's presence), "Name has already been
 * taken" (the uniqueness per project, checked first and decided by the unique index for a racing request). The
 * create level defaults to maintainers (ProtectedRefs::AccessLevelParams).
 */
export async function protectTag({ ctx, input }: Verb<{ project: Ref | null; params: ProtectTagParams }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const p = input.params;
  // Rails' `blank?`: empty or whitespace only.
  if (!p.name.trim()) throw unprocessable(["Name can't be blank"], 'list');
  const taken = () => unprocessable(['Name has already been taken'], 'list');
  if (await findProtectedTag(ctx.db, projectId, p.name)) throw taken();
  const row = await insertProtectedTag(ctx.db, { projectId, name: p.name, createAccessLevel: p.create_access_level ?? AccessLevel.MAINTAINER });
  if (!row) throw taken();
  return row;
}

/** DELETE protected_tags/:name: find_by! (404 `Not found`), destroy_conditionally! (If-Unmodified-Since), 204. */
export async function unprotectTag({ ctx, input }: Verb<{ project: Ref | null; name: string; ifUnmodifiedSince?: string | undefined }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const row = await findProtectedTag(ctx.db, projectId, input.name);
  if (!row) throw recordNotFound();
  assertUnmodifiedSince(input.ifUnmodifiedSince, row.updatedAt);
  if (!(await deleteProtectedTag(ctx.db, projectId, input.name))) throw recordNotFound();
}
