// Access requests (GitLab's lib/api/access_requests.rb with Members::RequestAccessService,
// ApproveAccessRequestService and DestroyService): someone without a role asks; the source's member administrators
// list, approve (a membership, at Developer unless told) or deny; the requester may withdraw.
import * as q from '../../db/queries/members.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, recordNotFound, validationFailed } from '../lib/errors.ts';
import { AccessLevel, assertCan, type AccessRequesterFacts } from '../lib/policy.ts';
import { assertCanOnSource, loadSource, type SourceInput } from '../sources/service.ts';
import { grantMembership } from './service.ts';
import { memberSourceOf } from './reads.ts';

type Verb<I> = { ctx: RequestContext; input: SourceInput & I };

/** GET access_requests: authorize_admin_source! (admin_project: maintainers; admin_group: owners). */
export async function listAccessRequests({ ctx, input }: Verb<object>) {
  const source = await loadSource(ctx, input);
  assertCanOnSource(ctx, 'admin_members', source.facts);
  const ref = memberSourceOf(source);
  return {
    fetch: (limit: number, offset: number) => q.listAccessRequests(ctx.db, ref, limit, offset),
    count: (limit: number) => q.countAccessRequests(ctx.db, ref, limit),
  };
}

export async function requestAccess({ ctx, input }: Verb<object>) {
  const source = await loadSource(ctx, input);
  assertCan(ctx.actor, 'source:request_access', { ...source.facts, requestAccessEnabled: source.requestAccessEnabled });
  const ref = memberSourceOf(source);
  const userId = ctx.actor.user!.id;
  try {
    await q.insertAccessRequest(ctx.db, ref, userId);
    return (await q.findAccessRequest(ctx.db, ref, userId))!;
  } catch (error) {
    // Member's uniqueness of the user in the source (a request is a member row in GitLab).
    if (isUniqueViolation(error, 'access_requests_source_user_key')) throw validationFailed({ user: ['already exists in source'] });
    throw error;
  }
}

const requesterFacts = (ctx: RequestContext, source: Awaited<ReturnType<typeof loadSource>>, userId: number): AccessRequesterFacts => ({
  kind: 'access_requester',
  source: source.facts,
  isSelf: ctx.actor.user?.id === userId,
});

/** PUT access_requests/:user_id/approve: the request becomes a membership (Developer unless `access_level` says). */
export async function approveAccessRequest({ ctx, input }: Verb<{ userId: number | null; access_level?: number | undefined }>) {
  const source = await loadSource(ctx, input);
  const userId = input.userId;
  const ref = memberSourceOf(source);
  const pending = userId === null ? undefined : await q.findAccessRequest(ctx.db, ref, userId);
  if (!pending) throw recordNotFound();
  assertCan(ctx.actor, 'access_requester:decide', requesterFacts(ctx, source, pending.user.id));
  return grantMembership(ctx, source, pending.user, input.access_level ?? AccessLevel.DEVELOPER, null, async (tx) => {
    // The request is consumed in the membership's transaction: a concurrent approval or withdrawal finds none.
    if (!(await q.deleteAccessRequest(tx, ref, pending.user.id))) throw recordNotFound();
  });
}

/** DELETE access_requests/:user_id: the requester withdraws, or the member administrators deny. */
export async function removeAccessRequest({ ctx, input }: Verb<{ userId: number | null }>) {
  const source = await loadSource(ctx, input);
  const userId = input.userId;
  const ref = memberSourceOf(source);
  const pending = userId === null ? undefined : await q.findAccessRequest(ctx.db, ref, userId);
  if (!pending) throw recordNotFound();
  const facts = requesterFacts(ctx, source, pending.user.id);
  if (!facts.isSelf) assertCan(ctx.actor, 'access_requester:decide', facts);
  else assertCan(ctx.actor, 'access_requester:withdraw', facts);
  if (!(await q.deleteAccessRequest(ctx.db, ref, pending.user.id))) throw recordNotFound();
}
