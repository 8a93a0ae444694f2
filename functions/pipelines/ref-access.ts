// Protected refs in CI (GitLab 13.6): Chain::Validate::Abilities#allowed_to_write_ref? refuses a pipeline on a branch
// the user can neither push nor merge to, or on a protected tag they cannot create (a trigger fires as its owner,
// so a demoted owner is refused too); Ci::Pipeline#protected_ref? marks a pipeline (and so its jobs) protected when
// its branch or tag is, and only those go to runners registered with `access_level: ref_protected`.
import type { RequestContext } from '../lib/context.ts';
import type { ProjectFacts } from '../lib/policy.ts';
import { canCreateTag, canMergeToBranch, canPushToBranch, isProtectedBranch, isProtectedTag } from '../repositories/writes/push-access.ts';
import type { RepositoryInfo } from '../repositories/service.ts';

/** Project#protected_for?(ref): a branch or a tag some protection rule matches. */
export const refProtected = (repository: RepositoryInfo, ref: string, tag: boolean): boolean =>
  tag ? isProtectedTag(repository, ref) : isProtectedBranch(repository, ref);

/** Gitlab::UserAccess#can_update_branch? (push or merge) for a branch, #can_create_tag? for a tag. */
export function canRunOnRef(ctx: RequestContext, facts: ProjectFacts, repository: RepositoryInfo, ref: string, tag: boolean): boolean {
  if (tag) return canCreateTag(ctx, facts, repository, ref);
  return canPushToBranch(ctx, facts, repository, ref) || canMergeToBranch(ctx, facts, repository, ref);
}

/** The base error Chain::Validate::Abilities adds for such a ref. */
export const protectedRefError = (ref: string) => `Insufficient permissions for protected ref '${ref}'`;
