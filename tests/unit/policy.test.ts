// lib/policy.ts: who may do what, as tables of actor x subject x action (pure: facts in, booleans out).
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema/index.ts';
import type { Actor } from '../../functions/lib/context.ts';
import { DomainError } from '../../functions/lib/errors.ts';
import { restError } from '../../functions/rest-errors.ts';
import {
  AccessLevel,
  assertCan,
  can,
  visibilityName,
  type GrantFacts,
  type GroupFacts,
  type IssueFacts,
  type MembershipFacts,
  type ProjectFacts,
  type RunnerFacts,
} from '../../functions/lib/policy.ts';

const person = (id: number, extra: Partial<UserRow> = {}): Actor => ({
  user: { id, username: `u${id}`, admin: false, external: false, canCreateGroup: true, state: 'active', ...extra } as UserRow,
  scopes: ['api'],
  via: 'personal_access_token',
});
const actors = {
  anonymous: { user: null, scopes: [], via: null } as Actor,
  user: person(1),
  external: person(2, { external: true }),
  admin: person(3, { admin: true }),
};
type Who = keyof typeof actors;

const V = { private: 0, internal: 10, public: 20 } as const;
const project = (visibility: keyof typeof V, accessLevel = 0): ProjectFacts => ({
  kind: 'project',
  visibilityLevel: V[visibility],
  accessLevel,
  archived: false,
  features: { issues: 20, repository: 20, mergeRequests: 20, builds: 20, snippets: 20, forking: 20, publicJobs: true },
});
const group = (visibility: keyof typeof V, accessLevel = 0, hasDescendantAccess = false): GroupFacts => ({
  kind: 'group',
  visibilityLevel: V[visibility],
  accessLevel,
  hasDescendantAccess,
});
/** A developer's membership of `source`, or one at `accessLevel`. */
const membership = (source: ProjectFacts | GroupFacts, accessLevel: number = AccessLevel.DEVELOPER): MembershipFacts => ({
  kind: 'membership',
  source,
  accessLevel,
  isSelf: false,
  lastOwner: false,
  namespaceOwner: false,
});
const grant = (source: ProjectFacts | GroupFacts, accessLevel: number): GrantFacts => ({ kind: 'grant', source, accessLevel });

describe('project:read', () => {
  it.each<[Who, keyof typeof V, number, boolean]>([
    ['anonymous', 'public', 0, true],
    ['anonymous', 'internal', 0, false],
    ['anonymous', 'private', 0, false],
    ['user', 'public', 0, true],
    ['user', 'internal', 0, true],
    ['user', 'private', 0, false],
    ['user', 'private', AccessLevel.GUEST, true],
    ['external', 'public', 0, true],
    ['external', 'internal', 0, false],
    ['external', 'internal', AccessLevel.GUEST, true],
    ['external', 'private', AccessLevel.REPORTER, true],
    ['admin', 'private', 0, true],
    ['admin', 'internal', 0, true],
  ])('%s on a %s project with access %i: %s', (who, visibility, level, expected) => {
    expect(can(actors[who], 'project:read', project(visibility, level))).toBe(expected);
  });
});

describe('project actions by access level', () => {
  it.each<[string, Who, keyof typeof V, number, boolean]>([
    ['project:update', 'user', 'private', AccessLevel.MAINTAINER, true],
    ['project:update', 'user', 'public', AccessLevel.DEVELOPER, false],
    ['project:update', 'admin', 'private', 0, true],
    ['project:delete', 'user', 'private', AccessLevel.OWNER, true],
    ['project:delete', 'user', 'private', AccessLevel.MAINTAINER, false],
    ['project:delete', 'admin', 'private', 0, true],
    ['project:star', 'anonymous', 'public', 0, false],
    ['project:star', 'user', 'public', 0, true],
    ['project:star', 'user', 'private', 0, false],
    ['project:fork', 'anonymous', 'public', 0, false],
    ['project:fork', 'user', 'internal', 0, true],
    ['project:fork', 'external', 'internal', 0, false],
    ['project:fork', 'user', 'private', AccessLevel.GUEST, false],
    ['project:fork', 'user', 'private', AccessLevel.REPORTER, true],
    ['project:read_members', 'anonymous', 'public', 0, true],
    ['project:admin_members', 'user', 'public', AccessLevel.DEVELOPER, false],
    ['project:admin_members', 'user', 'private', AccessLevel.MAINTAINER, true],
  ])('%s by %s on a %s project with access %i: %s', (action, who, visibility, level, expected) => {
    expect(can(actors[who], action as 'project:update', project(visibility, level))).toBe(expected);
  });
});

describe('group actions', () => {
  it.each<[string, Who, GroupFacts, boolean]>([
    ['group:read', 'anonymous', group('public'), true],
    ['group:read', 'anonymous', group('internal'), false],
    ['group:read', 'user', group('internal'), true],
    ['group:read', 'external', group('internal'), false],
    ['group:read', 'user', group('private'), false],
    ['group:read', 'user', group('private', 0, true), true],
    ['group:read', 'user', group('private', AccessLevel.GUEST), true],
    ['group:read', 'admin', group('private'), true],
    ['group:update', 'user', group('private', AccessLevel.MAINTAINER), false],
    ['group:update', 'user', group('private', AccessLevel.OWNER), true],
    ['group:delete', 'admin', group('private'), true],
    // GitLab's defaults: subgroups from Maintainer up, projects from Developer up.
    ['group:create_subgroup', 'user', group('public', AccessLevel.MAINTAINER), true],
    ['group:create_subgroup', 'user', group('public', AccessLevel.DEVELOPER), false],
    ['group:create_project', 'user', group('public', AccessLevel.DEVELOPER), true],
    ['group:create_project', 'user', group('public', AccessLevel.REPORTER), false],
    ['group:create_project', 'external', group('private'), false],
    ['group:admin_members', 'user', group('public', AccessLevel.OWNER), true],
    ['group:admin_runners', 'user', group('private', AccessLevel.MAINTAINER), false],
    ['group:admin_runners', 'user', group('private', AccessLevel.OWNER), true],
    ['group:admin_runners', 'admin', group('private'), true],
  ])('%s by %s: %s', (action, who, facts, expected) => {
    expect(can(actors[who], action as 'group:read', facts)).toBe(expected);
  });
});

describe('runner actions (RunnerPolicy, ci_owned_runners)', () => {
  const runner = (runnerType: RunnerFacts['runnerType'], ownerLevel: number, o: { locked?: boolean; projectCount?: number } = {}): RunnerFacts => ({
    kind: 'runner',
    runnerType,
    locked: o.locked ?? false,
    ownerLevel,
    projectCount: o.projectCount ?? (runnerType === 'project_type' ? 1 : 0),
  });
  it.each<[string, Who, RunnerFacts, boolean]>([
    // A group runner: the Owners of its group (or of a group above it); Maintainers are not owners.
    ['runner:read', 'user', runner('group_type', AccessLevel.OWNER), true],
    ['runner:read', 'user', runner('group_type', AccessLevel.MAINTAINER), false],
    ['runner:update', 'user', runner('group_type', AccessLevel.OWNER), true],
    ['runner:update', 'user', runner('group_type', AccessLevel.MAINTAINER), false],
    ['runner:delete', 'user', runner('group_type', AccessLevel.OWNER), true],
    ['runner:delete', 'admin', runner('group_type', 0), true],
    ['runner:read', 'anonymous', runner('group_type', AccessLevel.OWNER), false],
    // Never assigned to a project, not even by an administrator.
    ['runner:assign', 'user', runner('group_type', AccessLevel.OWNER), false],
    ['runner:assign', 'admin', runner('group_type', 0), false],
    // A project runner: the Maintainers of its projects.
    ['runner:read', 'user', runner('project_type', AccessLevel.MAINTAINER), true],
    ['runner:read', 'user', runner('project_type', AccessLevel.DEVELOPER), false],
    ['runner:delete', 'user', runner('project_type', AccessLevel.MAINTAINER, { projectCount: 2 }), false],
    ['runner:assign', 'user', runner('project_type', AccessLevel.MAINTAINER), true],
    ['runner:assign', 'user', runner('project_type', AccessLevel.MAINTAINER, { locked: true }), false],
    ['runner:assign', 'admin', runner('project_type', 0, { locked: true }), true],
    // Shared runners: read by anyone signed in, changed by administrators.
    ['runner:read', 'user', runner('instance_type', 0), true],
    ['runner:update', 'user', runner('instance_type', 0), false],
    ['runner:update', 'admin', runner('instance_type', 0), true],
  ])('%s by %s: %s', (action, who, facts, expected) => {
    expect(can(actors[who], action as 'runner:read', facts)).toBe(expected);
  });
});

describe('issue:admin', () => {
  const issue = (p: ProjectFacts, extra: Partial<IssueFacts> = {}): IssueFacts => ({
    kind: 'issue',
    project: p,
    authorId: 1,
    assigneeIds: [],
    confidential: false,
    ...extra,
  });
  it.each<[string, Who, IssueFacts, boolean]>([
    ['a reporter', 'user', issue(project('private', AccessLevel.REPORTER)), true],
    ['a guest, though the author', 'user', issue(project('private', AccessLevel.GUEST)), false],
    ['anonymous on a public project', 'anonymous', issue(project('public')), false],
    ['a non-member of a private project', 'user', issue(project('private')), false],
    ['an administrator', 'admin', issue(project('private')), true],
    ['a reporter, on a confidential issue', 'user', issue(project('public', AccessLevel.REPORTER), { confidential: true, authorId: 9 }), true],
  ])('%s: %s', (_title, who, i, expected) => expect(can(actors[who], 'issue:admin', i)).toBe(expected));

  it('is narrower than issue:update (authors edit their own issues)', () => {
    const own = issue(project('public', AccessLevel.GUEST));
    expect([can(actors.user, 'issue:update', own), can(actors.user, 'issue:admin', own)]).toEqual([true, false]);
  });
});

describe('personal namespaces', () => {
  const ns = (ownerId: number | null) => ({ kind: 'personal_namespace' as const, ownerId });
  it.each<[Who, number | null, boolean]>([
    ['user', 1, true],
    ['user', 2, false],
    ['anonymous', null, false],
    ['admin', 1, true],
  ])('%s in the namespace of user %s: %s', (who, ownerId, expected) => {
    expect(can(actors[who], 'personal_namespace:read', ns(ownerId))).toBe(expected);
    expect(can(actors[who], 'personal_namespace:create_project', ns(ownerId))).toBe(expected);
  });
});

describe('user actions', () => {
  const subject = (id: number) => ({ kind: 'user' as const, id, state: 'active' });
  it.each<[string, Who, number, boolean]>([
    ['user:read', 'anonymous', 1, true],
    ['user:admin', 'user', 1, false],
    ['user:admin', 'admin', 1, true],
    ['user:read_tokens', 'user', 1, true],
    ['user:read_tokens', 'user', 2, false],
    ['user:read_tokens', 'anonymous', 1, false],
    ['user:read_tokens', 'admin', 1, true],
    ['user:create_group', 'user', 1, true],
    ['user:create_group', 'user', 2, false],
    ['user:create_group', 'admin', 3, true],
  ])('%s by %s on user %i: %s', (action, who, id, expected) => {
    expect(can(actors[who], action as 'user:read', subject(id))).toBe(expected);
  });
});

describe('assertCan: 404 when the subject is invisible, 403 when visible but not allowed', () => {
  const thrown = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      return e instanceof DomainError ? restError(e) : e;
    }
    return 'allowed';
  };
  it.each<[string, Who, string, ProjectFacts | GroupFacts | { kind: 'user'; id: number; state: string } | MembershipFacts | GrantFacts, unknown]>([
    ['private project, no access', 'user', 'project:update', project('private'), { status: 404, body: { message: '404 Project Not Found' } }],
    ['public project, developer', 'user', 'project:update', project('public', AccessLevel.DEVELOPER), { status: 403, body: { message: '403 Forbidden' } }],
    ['internal project, anonymous', 'anonymous', 'project:read', project('internal'), { status: 404, body: { message: '404 Project Not Found' } }],
    ['private group', 'external', 'group:update', group('private'), { status: 404, body: { message: '404 Group Not Found' } }],
    ['public group, maintainer', 'user', 'group:delete', group('public', AccessLevel.MAINTAINER), { status: 403, body: { message: '403 Forbidden' } }],
    ['user admin by a user', 'user', 'user:admin', { kind: 'user', id: 9, state: 'active' }, { status: 403, body: { message: '403 Forbidden' } }],
    ['maintainer updates', 'user', 'project:update', project('private', AccessLevel.MAINTAINER), 'allowed'],
    // Memberships and grants are seen through their source.
    ['member of an invisible project', 'user', 'member:update', membership(project('private')), { status: 404, body: { message: '404 Project Not Found' } }],
    [
      'member of a visible group',
      'user',
      'member:destroy',
      membership(group('public', AccessLevel.DEVELOPER)),
      { status: 403, body: { message: '403 Forbidden' } },
    ],
    [
      'grant on an invisible group',
      'external',
      'member:grant',
      grant(group('internal'), AccessLevel.GUEST),
      { status: 404, body: { message: '404 Group Not Found' } },
    ],
    [
      'grant above what one holds',
      'user',
      'member:grant',
      grant(project('public', AccessLevel.MAINTAINER), AccessLevel.OWNER),
      { status: 403, body: { message: '403 Forbidden' } },
    ],
  ])('%s', (_title, who, action, subject, expected) => {
    expect(thrown(() => assertCan(actors[who], action as 'project:update', subject as ProjectFacts))).toEqual(expected);
  });
});

describe('membership changes', () => {
  type Membership = Pick<MembershipFacts, 'isSelf' | 'lastOwner' | 'namespaceOwner'>;
  const facts = (extra: Partial<Membership> = {}): Membership => ({ isSelf: false, lastOwner: false, namespaceOwner: false, ...extra });
  it.each<[string, Who, GroupFacts, Membership, boolean, boolean]>([
    ['an owner manages members', 'user', group('private', AccessLevel.OWNER), facts(), true, true],
    ['a maintainer of a group does not', 'user', group('public', AccessLevel.MAINTAINER), facts(), false, false],
    ['a member may leave but not change themselves', 'user', group('public', AccessLevel.DEVELOPER), facts({ isSelf: true }), false, true],
    ['nobody touches the last owner, admins included', 'admin', group('private'), facts({ lastOwner: true }), false, false],
    ['nor the owner of a personal namespace', 'admin', group('private'), facts({ namespaceOwner: true }), false, false],
  ])('%s', (_title, who, source, m, update, destroy) => {
    const subject = { ...membership(source), ...m };
    expect(can(actors[who], 'member:update', subject)).toBe(update);
    expect(can(actors[who], 'member:destroy', subject)).toBe(destroy);
  });

  it.each<[string, Who, MembershipFacts, boolean, boolean]>([
    ['a project maintainer manages developers', 'user', membership(project('private', AccessLevel.MAINTAINER)), true, true],
    ['but not a member who holds more', 'user', membership(project('private', AccessLevel.MAINTAINER), AccessLevel.OWNER), false, false],
    [
      'a guest may leave but not change themselves',
      'user',
      { ...membership(project('private', AccessLevel.GUEST), AccessLevel.GUEST), isSelf: true },
      false,
      true,
    ],
    ['an administrator changes anyone', 'admin', membership(group('private'), AccessLevel.OWNER), true, true],
    ['a group maintainer does not', 'user', membership(group('private', AccessLevel.MAINTAINER), AccessLevel.GUEST), false, false],
    ['nobody leaves a source they cannot see', 'user', { ...membership(project('private')), isSelf: true }, false, false],
  ])('%s', (_title, who, m, update, destroy) => {
    expect(can(actors[who], 'member:update', m)).toBe(update);
    expect(can(actors[who], 'member:destroy', m)).toBe(destroy);
  });
});

describe('member:grant', () => {
  it.each<[string, Who, GrantFacts, boolean]>([
    ['a group owner grants Owner', 'user', grant(group('private', AccessLevel.OWNER), AccessLevel.OWNER), true],
    ['a group maintainer grants nothing', 'user', grant(group('private', AccessLevel.MAINTAINER), AccessLevel.GUEST), false],
    ['a project developer grants nothing', 'user', grant(project('public', AccessLevel.DEVELOPER), AccessLevel.GUEST), false],
    ['anonymous grants nothing', 'anonymous', grant(project('public'), AccessLevel.GUEST), false],
  ])('%s', (_title, who, g, expected) => expect(can(actors[who], 'member:grant', g)).toBe(expected));
});

describe('canGrant and visibilityName', () => {
  it.each<[Who, number, number, boolean]>([
    ['user', AccessLevel.MAINTAINER, AccessLevel.DEVELOPER, true],
    ['user', AccessLevel.MAINTAINER, AccessLevel.MAINTAINER, true],
    ['user', AccessLevel.MAINTAINER, AccessLevel.OWNER, false],
    ['admin', 0, AccessLevel.OWNER, true],
  ])('%s holding %i grants %i: %s', (who, held, level, expected) =>
    expect(can(actors[who], 'member:grant', grant(project('private', held), level))).toBe(expected),
  );

  it.each([
    [0, 'private'],
    [10, 'internal'],
    [20, 'public'],
    [5, 'private'],
  ])('%i is %s', (level, name) => expect(visibilityName(level)).toBe(name));
});
