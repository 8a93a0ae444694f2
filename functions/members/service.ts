// Member verbs, one set for projects and groups (GitLab's lib/api/members.rb with Members::*Service and the member
// policies). Reads need the source to be visible; changes need admin_members, except that members may leave.
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/members.ts';
import { recordEvent } from '../events/record.ts';
import { findUserByRef } from '../../db/queries/users.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, forbidden, isUniqueViolation, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { AccessLevel, assertCan, canDestroyMember, canGrant, canUpdateMember, isAdministrator, type GroupFacts, type ProjectFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { ACCESS_LEVEL_NAMES } from './schemas.ts';

export type SourceKind = 'project' | 'group';
type Verb<I> = { ctx: RequestContext; input: { kind: SourceKind; ref: Ref | null } & I };

interface Source {
  facts: ProjectFacts | GroupFacts;
  ref: q.MemberSource;
  /** The actor's effective level on the source. */
  held: number;
  /** A personal project's namespace owner (protected from changes through this API). */
  namespaceOwnerId: number | null;
  /** For groups: the group and its ancestors, whose owners count for the last-owner rule; the root is locked. */
  hierarchy: number[] | null;
}

/** The source the actor may see (404 otherwise); the members API always wants a signed-in user (401). */
async function loadSource(ctx: RequestContext, kind: SourceKind, ref: Ref | null): Promise<Source> {
  requireUser(ctx);
  if (kind === 'project') {
    const view = await findProject(ctx, ref);
    const ns = view.namespace;
    return {
      facts: projectFacts(view),
      ref: { type: 'Project', id: view.project.id, ancestorGroupIds: ns.kind === 'group' ? ns.traversalIds : [] },
      held: view.accessLevel,
      namespaceOwnerId: ns.kind === 'user' ? ns.ownerId : null,
      hierarchy: null,
    };
  }
  const view = await findGroup(ctx, ref);
  const ns = view.namespace;
  return {
    facts: groupFacts(view),
    ref: { type: 'Namespace', id: ns.id, ancestorGroupIds: ns.traversalIds.filter((id) => id !== ns.id) },
    held: view.accessLevel,
    namespaceOwnerId: null,
    hierarchy: ns.traversalIds,
  };
}

function assertRead(ctx: RequestContext, s: Source) {
  if (s.facts.kind === 'project') assertCan(ctx.actor, 'project:read_members', s.facts);
  else assertCan(ctx.actor, 'group:read_members', s.facts);
}

function assertAdmin(ctx: RequestContext, s: Source) {
  if (s.facts.kind === 'project') assertCan(ctx.actor, 'project:admin_members', s.facts);
  else assertCan(ctx.actor, 'group:admin_members', s.facts);
}

export function listMembers({ ctx, input }: Verb<{ all: boolean; query?: string | undefined; user_ids?: number[] | undefined }>) {
  const filter: q.MemberFilter = { query: input.query || undefined, userIds: input.user_ids, searchPrivateEmail: isAdministrator(ctx.actor) };
  return loadSource(ctx, input.kind, input.ref).then((source) => {
    assertRead(ctx, source);
    return {
      fetch: (limit: number, offset: number) => (input.all ? q.listAllMembers : q.listDirectMembers)(ctx.db, source.ref, filter, limit, offset),
      count: (limit: number) => (input.all ? q.countAllMembers : q.countDirectMembers)(ctx.db, source.ref, filter, limit),
    };
  });
}

// GitLab finds members with `find_by!`, so a missing one is ActiveRecord's `404 Not found`.
const memberNotFound = recordNotFound;

/** `userId` null: an id no user can have (out of the integer range), so no membership either. */
export async function getMember({ ctx, input }: Verb<{ all: boolean; userId: number | null }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  assertRead(ctx, source);
  const userId = input.userId;
  if (userId === null) throw memberNotFound();
  const row = input.all ? await q.findInheritedMember(ctx.db, source.ref, userId) : await q.findDirectMember(ctx.db, source.ref, userId, { activeOnly: true });
  if (!row) throw memberNotFound();
  return row;
}

const today = () => new Date().toISOString().slice(0, 10);

/** The Member model's validations (400 `{"message":{...}}`). */
async function validateMembership(db: Db, kind: SourceKind, source: Source, userId: number, level: number, expiresAt: string | null | undefined) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  // ProjectMember accepts Gitlab::Access.values (no Owner); GroupMember all_values.
  if (kind === 'project' && level > AccessLevel.MAINTAINER) add('access_level', 'is not included in the list');
  if (expiresAt && expiresAt < today()) add('expires_at', 'cannot be a date in the past');
  const inherited = await q.findHighestGroupMembership(db, source.ref.ancestorGroupIds, userId);
  if (inherited && inherited.accessLevel > level) {
    add('access_level', `should be greater than or equal to ${ACCESS_LEVEL_NAMES[inherited.accessLevel]} inherited membership from group ${inherited.groupName}`);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** `user_id` null: an id no user can have (out of the integer range): 404 User Not Found like any unknown id. */
export async function addMember({ ctx, input }: Verb<{ user_id: number | null; access_level: number; expires_at?: string | null | undefined }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  assertAdmin(ctx, source);
  const userId = input.user_id;
  if (userId !== null && (await q.findDirectMember(ctx.db, source.ref, userId))) throw conflict('Member already exists');
  const user = userId !== null ? await findUserByRef(ctx.db, userId) : undefined;
  if (!user) throw notFound('User');
  await validateMembership(ctx.db, input.kind, source, user.id, input.access_level, input.expires_at);
  if (!canGrant(ctx.actor, source.held, input.access_level)) throw forbidden();
  try {
    const member = await ctx.transaction(async (tx) => {
      const row = await q.insertMember(tx, {
        sourceType: source.ref.type,
        sourceId: source.ref.id,
        userId: user.id,
        accessLevel: input.access_level,
        expiresAt: input.expires_at ?? null,
        createdById: ctx.actor.user!.id,
      });
      // GitLab's EventCreateService#join_source: projects only (a group membership records nothing).
      if (source.ref.type === 'Project') await recordEvent(tx, { action: 'joined', authorId: user.id, projectId: source.ref.id });
      return row;
    });
    return { member, user };
  } catch (error) {
    // A concurrent add of the same user won the race.
    if (isUniqueViolation(error, 'members_source_user_idx')) throw conflict('Member already exists');
    throw error;
  }
}

/** In the caller's transaction: the member (locked), and whether it is the last owner or a protected namespace owner. */
async function lockedMembership(tx: Db, ctx: RequestContext, source: Source, userId: number) {
  if (source.hierarchy) await q.lockNamespace(tx, source.hierarchy[0]!);
  const row = await q.findDirectMember(tx, source.ref, userId, { lock: true });
  if (!row) throw memberNotFound();
  let lastOwner = false;
  if (source.hierarchy) {
    const owners = await q.groupOwnerIds(tx, source.hierarchy);
    lastOwner = owners.length === 1 && owners[0] === userId;
  }
  const facts = { isSelf: ctx.actor.user?.id === userId, lastOwner, namespaceOwner: source.namespaceOwnerId === userId };
  return { row, facts };
}

export async function updateMember({ ctx, input }: Verb<{ userId: number | null; access_level: number; expires_at?: string | null | undefined }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  assertAdmin(ctx, source);
  const userId = input.userId;
  if (userId === null) throw memberNotFound();
  return ctx.transaction(async (tx) => {
    const { row, facts } = await lockedMembership(tx, ctx, source, userId);
    if (!canUpdateMember(ctx.actor, source.facts, facts)) throw forbidden();
    // Nobody changes a member who holds more than they do, nor grants more than they hold.
    if (!canGrant(ctx.actor, source.held, row.member.accessLevel) || !canGrant(ctx.actor, source.held, input.access_level)) throw forbidden();
    await validateMembership(tx, input.kind, source, userId, input.access_level, input.expires_at);
    const member = await q.updateMember(tx, row.member.id, { accessLevel: input.access_level, expiresAt: input.expires_at });
    return { member, user: row.user };
  });
}

export async function removeMember({ ctx, input }: Verb<{ userId: number | null }>) {
  const source = await loadSource(ctx, input.kind, input.ref);
  const userId = input.userId;
  if (userId === null) throw memberNotFound();
  await ctx.transaction(async (tx) => {
    const { row, facts } = await lockedMembership(tx, ctx, source, userId);
    if (!canDestroyMember(ctx.actor, source.facts, facts)) throw forbidden();
    if (!facts.isSelf && !canGrant(ctx.actor, source.held, row.member.accessLevel)) throw forbidden();
    await q.deleteMember(tx, row.member.id);
    // GitLab's ProjectMember#post_destroy_hook: every removal of a project member records `left` (or `expired` for a
    // membership past its date), authored by the member, whoever removed it; group memberships record nothing.
    if (source.ref.type === 'Project') {
      const expired = row.member.expiresAt !== null && row.member.expiresAt <= today();
      await recordEvent(tx, { action: expired ? 'expired' : 'left', authorId: userId, projectId: source.ref.id });
    }
  });
}
