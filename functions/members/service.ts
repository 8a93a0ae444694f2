// Member verbs, one set for projects and groups (GitLab's lib/api/members.rb with Members::*Service and the member
// policies). Reads need the source to be visible; changes need admin_members, except that members may leave.
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/members.ts';
import { recordEvent } from '../events/record.ts';
import { findUserByRef } from '../users/lookups.ts';
import { findUserById } from '../users/service.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isUniqueViolation, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import { AccessLevel, assertCan, type MemberSourceFacts, type MembershipFacts } from '../lib/policy.ts';
import { assertCanOnSource, loadSource, type Source as LoadedSource, type SourceInput, type SourceKind } from '../sources/service.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { memberFilter, memberSourceOf } from './reads.ts';
import { ACCESS_LEVEL_NAMES } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: SourceInput & I };

interface Source {
  /** With the actor's effective level on the source, which bounds what they may grant. */
  facts: MemberSourceFacts;
  ref: q.MemberSource;
  /** A personal project's namespace owner (protected from changes through this API). */
  namespaceOwnerId: number | null;
  /** For groups: the group and its ancestors, whose owners count for the last-owner rule; the root is locked. */
  hierarchy: number[] | null;
}

/** The source (sources/service.ts) with what the member rules need of it. */
async function memberSource(ctx: RequestContext, input: SourceInput): Promise<Source> {
  return toMemberSource(await loadSource(ctx, input));
}

function toMemberSource(s: LoadedSource): Source {
  return {
    facts: s.facts,
    ref: memberSourceOf(s),
    namespaceOwnerId: s.kind === 'project' && s.namespace.kind === 'user' ? s.namespace.ownerId : null,
    hierarchy: s.kind === 'group' ? s.namespace.traversalIds : null,
  };
}

export function listMembers({ ctx, input }: Verb<{ all: boolean; query?: string | undefined; user_ids?: number[] | undefined }>) {
  const filter = memberFilter(ctx, input.query, input.user_ids);
  return memberSource(ctx, input).then((source) => {
    assertCanOnSource(ctx, 'read_members', source.facts);
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
  const source = await memberSource(ctx, input);
  assertCanOnSource(ctx, 'read_members', source.facts);
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
    add(
      'access_level',
      `should be greater than or equal to ${ACCESS_LEVEL_NAMES[inherited.accessLevel]} inherited membership from group ${inherited.groupName}`,
    );
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** `user_id` null: an id no user can have (out of the integer range): 404 User Not Found like any unknown id. */
export async function addMember({ ctx, input }: Verb<{ user_id: number | null; access_level: number; expires_at?: string | null | undefined }>) {
  const loaded = await loadSource(ctx, input);
  assertCanOnSource(ctx, 'admin_members', loaded.facts);
  const userId = input.user_id;
  if (userId !== null && (await q.findDirectMember(ctx.db, toMemberSource(loaded).ref, userId))) throw conflict('Member already exists');
  const user = userId !== null ? await findUserByRef(ctx.db, userId) : undefined;
  if (!user) throw notFound('User');
  return grantMembership(ctx, loaded, user, input.access_level, input.expires_at ?? null);
}

/**
 * Makes `user` a member of the source at `level`: the Member model's validations, the grant rule, the row and the
 * `joined` event, and `alsoInTx` (an access request consumed) in one transaction.
 */
export async function grantMembership(
  ctx: RequestContext,
  loaded: LoadedSource,
  user: UserRow,
  level: number,
  expiresAt: string | null,
  alsoInTx?: (tx: Db) => Promise<void>,
) {
  const source = toMemberSource(loaded);
  await validateMembership(ctx.db, loaded.kind, source, user.id, level, expiresAt);
  assertCan(ctx.actor, 'member:grant', { kind: 'grant', source: source.facts, accessLevel: level });
  try {
    const member = await ctx.transaction(async (tx) => {
      await alsoInTx?.(tx);
      const row = await q.insertMember(tx, {
        sourceType: source.ref.type,
        sourceId: source.ref.id,
        userId: user.id,
        accessLevel: level,
        expiresAt,
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

/** In the caller's transaction: the member (locked), and the policy's facts (last owner, protected namespace owner...). */
async function lockedMembership(tx: Db, ctx: RequestContext, source: Source, userId: number) {
  if (source.hierarchy) await q.lockNamespace(tx, source.hierarchy[0]!);
  const row = await q.findDirectMember(tx, source.ref, userId, { lock: true });
  if (!row) throw memberNotFound();
  let lastOwner = false;
  if (source.hierarchy) {
    const owners = await q.groupOwnerIds(tx, source.hierarchy);
    lastOwner = owners.length === 1 && owners[0] === userId;
  }
  const facts: MembershipFacts = {
    kind: 'membership',
    source: source.facts,
    accessLevel: row.member.accessLevel,
    isSelf: ctx.actor.user?.id === userId,
    lastOwner,
    namespaceOwner: source.namespaceOwnerId === userId,
  };
  return { row, facts };
}

export async function updateMember({ ctx, input }: Verb<{ userId: number | null; access_level: number; expires_at?: string | null | undefined }>) {
  const source = await memberSource(ctx, input);
  assertCanOnSource(ctx, 'admin_members', source.facts);
  const userId = input.userId;
  if (userId === null) throw memberNotFound();
  return ctx.transaction(async (tx) => {
    const { row, facts } = await lockedMembership(tx, ctx, source, userId);
    assertCan(ctx.actor, 'member:update', facts);
    assertCan(ctx.actor, 'member:grant', { kind: 'grant', source: source.facts, accessLevel: input.access_level });
    await validateMembership(tx, input.kind, source, userId, input.access_level, input.expires_at);
    const member = await q.updateMember(tx, row.member.id, { accessLevel: input.access_level, expiresAt: input.expires_at });
    return { member, user: row.user };
  });
}

export async function removeMember({ ctx, input }: Verb<{ userId: number | null }>) {
  const source = await memberSource(ctx, input);
  const userId = input.userId;
  if (userId === null) throw memberNotFound();
  await ctx.transaction(async (tx) => {
    const { row, facts } = await lockedMembership(tx, ctx, source, userId);
    assertCan(ctx.actor, 'member:destroy', facts);
    await q.deleteMember(tx, row.member.id);
    // GitLab's ProjectMember#post_destroy_hook: every removal of a project member records `left` (or `expired` for a
    // membership past its date), authored by the member, whoever removed it; group memberships record nothing.
    if (source.ref.type === 'Project') {
      const expired = row.member.expiresAt !== null && row.member.expiresAt <= today();
      await recordEvent(tx, { action: expired ? 'expired' : 'left', authorId: userId, projectId: source.ref.id });
    }
  });
}

/** GET /users/:user_id/memberships (the route is for administrators): 404 `User Not Found` for an unknown user. */
export async function listUserMemberships({
  ctx,
  input,
}: {
  ctx: RequestContext;
  input: { userId: number | null; type?: 'Project' | 'Namespace' | undefined };
}) {
  const user = await findUserById(ctx, input.userId);
  return {
    fetch: (limit: number, offset: number) => q.listUserMemberships(ctx.db, user.id, input.type, limit, offset),
    count: (limit: number) => q.countUserMemberships(ctx.db, user.id, input.type, limit),
  };
}
