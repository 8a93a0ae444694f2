// Who may move which branch: Gitlab::UserAccess#can_push_to_branch? over the project's protected branches (the
// protected_branches table; the default branch gets its row when it is created, default_branch_protection 2).
// GitLab 13.6's ProtectedBranch.protected? also protects every branch of an EMPTY repository when the default
// branch is protected (`return true if project.empty_repo? && project.default_branch_protected?`): the first push
// needs a maintainer. Every branch write (files, commits, branch creation and deletion) and the Branch entity's
// protected/developers_can_*/can_push ask here. Protected tags (the protected_tags table) are ruled here too:
// Gitlab::UserAccess#can_create_tag? with ProtectedTag::CreateAccessLevel, for tag creation and the Tag entity.
import { RE2JS } from 're2js';
import type { ProtectionRule } from '../../../db/queries/repositories/refs.ts';
import { BoundedCache } from '../../lib/bounded-cache.ts';
import type { RequestContext } from '../../lib/context.ts';
import { AccessLevel, can, isAdministrator, type ProjectFacts } from '../../lib/policy.ts';
import type { RepositoryInfo } from '../service.ts';

/**
 * RefMatcher#wildcard_regex, compiled: the pattern's other characters literal, each `*` any run of characters.
 * RE2 (re2js), never a JavaScript RegExp: the pattern is a maintainer's, and `*a*a*a*a*a*a*a*a*b` backtracks
 * exponentially there on a long name. Kept in a bounded cache, as an isolate serves every project's patterns.
 */
const wildcards = new BoundedCache<string, RE2JS>(512);
const compileWildcard = (pattern: string) =>
  RE2JS.compile(
    pattern
      .split('*')
      .map((part) => (part ? RE2JS.quote(part) : ''))
      .join('(?s:.*)'),
  );

/** ProtectedRefMatcher: an exact name, or a pattern whose `*` matches any run of characters (`/` included). */
export function matchesRef(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  return wildcards.get(pattern, compileWildcard).matches(name);
}

const rulesFor = (repository: RepositoryInfo, branch: string): ProtectionRule[] => repository.protectedBranches.filter((r) => matchesRef(r.name, branch));

/** Whether `branch` is protected: a rule matches it, or the repository has no branch yet. */
export const isProtectedBranch = (repository: RepositoryInfo, branch: string) => repository.defaultBranch === null || rulesFor(repository, branch).length > 0;

/**
 * ProtectedBranchAccess#check_access: "No one" (0) stops everybody, administrators included; otherwise an
 * administrator passes, and anyone else needs push_code and a role at least the level (30 developers, 40
 * maintainers, 60 administrators only). The policy module answers the role question, so no level is read here.
 */
function passes(ctx: RequestContext, facts: ProjectFacts, level: number): boolean {
  if (level === AccessLevel.NONE) return false;
  if (isAdministrator(ctx.actor)) return true;
  if (level <= AccessLevel.DEVELOPER) return can(ctx.actor, 'project:push_code', facts);
  if (level <= AccessLevel.MAINTAINER) return can(ctx.actor, 'project:push_to_protected_branch', facts);
  return false;
}

/** Gitlab::UserAccess#can_push_to_branch?: push_code, then any matching rule's push level (any one suffices). */
export function canPushToBranch(ctx: RequestContext, facts: ProjectFacts, repository: RepositoryInfo, branch: string): boolean {
  if (!can(ctx.actor, 'project:push_code', facts)) return false;
  if (repository.defaultBranch === null) return can(ctx.actor, 'project:push_to_protected_branch', facts);
  const rules = rulesFor(repository, branch);
  return !rules.length || rules.some((r) => passes(ctx, facts, r.push));
}

/** ProtectedBranch.developers_can?(:push|:merge): some matching rule grants developers that action. */
export function developersCan(repository: RepositoryInfo, branch: string, action: 'push' | 'merge'): boolean {
  return rulesFor(repository, branch).some((r) => r[action] === AccessLevel.DEVELOPER);
}

/** Gitlab::UserAccess#can_merge_to_branch?: as pushing, with the rules' merge levels (creating a protected branch). */
export function canMergeToBranch(ctx: RequestContext, facts: ProjectFacts, repository: RepositoryInfo, branch: string): boolean {
  if (!can(ctx.actor, 'project:push_code', facts)) return false;
  const rules = rulesFor(repository, branch);
  return !rules.length || rules.some((r) => passes(ctx, facts, r.merge));
}

const tagRulesFor = (repository: RepositoryInfo, tag: string) => repository.protectedTags.filter((r) => matchesRef(r.name, tag));

/** ProtectedTag.protected?: some protected tag (a name or a `*` pattern) matches `tag`. */
export const isProtectedTag = (repository: RepositoryInfo, tag: string) => tagRulesFor(repository, tag).length > 0;

/**
 * Gitlab::UserAccess#can_create_tag?: a protected tag needs a matching rule whose create level the caller passes
 * (ProtectedTag::CreateAccessLevel#check_access: "No one" stops everybody, administrators included); any other tag
 * needs admin_tag, which the policy calls push_code.
 */
export function canCreateTag(ctx: RequestContext, facts: ProjectFacts, repository: RepositoryInfo, tag: string): boolean {
  if (!can(ctx.actor, 'project:push_code', facts)) return false;
  const rules = tagRulesFor(repository, tag);
  return !rules.length || rules.some((r) => passes(ctx, facts, r.create));
}
