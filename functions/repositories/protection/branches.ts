// Protected branches, as GitLab 13.6's lib/api/protected_branches.rb (`before { authorize_admin_project }`:
// maintainers, for reads too) with ProtectedBranches::ApiService / DestroyService. The push rule they feed is
// push-access.ts's; this file only keeps the rows.
import {
  deleteProtectedBranch,
  findProtectedBranch,
  insertProtectedBranch,
  listProtectedBranches,
} from '../../../db/queries/repositories/protected-branches.ts';
import type { RequestContext } from '../../lib/context.ts';
import { assertUnmodifiedSince, conflict, recordNotFound, unprocessable } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { AccessLevel } from '../../lib/policy.ts';
import { adminProjectId } from '../service.ts';
import type { ListProtectedBranchesParams, ProtectBranchParams } from './branch-schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GET protected_branches: by id; `search` a case-insensitive substring of the name (ProtectedBranchesFinder). */
export async function listProtections({ ctx, input }: Verb<{ project: Ref | null; params: ListProtectedBranchesParams }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const all = await listProtectedBranches(ctx.db, projectId);
  const search = input.params.search?.toLowerCase();
  return search ? all.filter((p) => p.name.toLowerCase().includes(search)) : all;
}

/** GET protected_branches/:name: the exact name (a pattern by its text); 404 `Not found` (find_by!). */
export async function getProtection({ ctx, input }: Verb<{ project: Ref | null; name: string }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const row = await findProtectedBranch(ctx.db, projectId, input.name);
  if (!row) throw recordNotFound();
  return row;
}

/**
 * POST protected_branches: 409 "Protected branch '<name>' already exists" (checked first, and again by the unique
 * index for a racing request); levels default to maintainers (ProtectedBranches::ApiService). A blank name is the
 * model's "Name can't be blank", which GitLab renders with 422.
 */
export async function protectBranch({ ctx, input }: Verb<{ project: Ref | null; params: ProtectBranchParams }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const p = input.params;
  // render_api_error!(protected_branch.errors.full_messages, 422): the messages as an array.
  if (!p.name.trim()) throw unprocessable(["Name can't be blank"], 'list');
  const exists = () => conflict(`Protected branch '${p.name}' already exists`);
  if (await findProtectedBranch(ctx.db, projectId, p.name)) throw exists();
  const row = await insertProtectedBranch(ctx.db, {
    projectId,
    name: p.name,
    pushAccessLevel: p.push_access_level ?? AccessLevel.MAINTAINER,
    mergeAccessLevel: p.merge_access_level ?? AccessLevel.MAINTAINER,
  });
  if (!row) throw exists();
  return row;
}

/** DELETE protected_branches/:name: find_by! (404 `Not found`), destroy_conditionally! (If-Unmodified-Since), 204. */
export async function unprotectBranch({ ctx, input }: Verb<{ project: Ref | null; name: string; ifUnmodifiedSince?: string | undefined }>) {
  const projectId = await adminProjectId(ctx, input.project);
  const row = await findProtectedBranch(ctx.db, projectId, input.name);
  if (!row) throw recordNotFound();
  assertUnmodifiedSince(input.ifUnmodifiedSince, row.updatedAt);
  if (!(await deleteProtectedBranch(ctx.db, projectId, input.name))) throw recordNotFound();
}
