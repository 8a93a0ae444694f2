// Who may move which branch: Gitlab::UserAccess#can_push_to_branch? under the instance's default_branch_protection 2
// (the default branch is protected, maintainers push to it; developers push to every other branch). GitLab 13.6's
// ProtectedBranch.protected? also protects every branch of an EMPTY repository when the default branch is protected
// (`return true if project.empty_repo? && project.default_branch_protected?`): the first push needs a maintainer.
import type { RequestContext } from '../lib/context.ts';
import { can, type ProjectFacts } from '../lib/policy.ts';
import type { RepositoryInfo } from './service.ts';

/** Whether `branch` is protected: the default branch, or any branch while the repository has none. */
export const isProtectedBranch = (repository: RepositoryInfo, branch: string) => repository.defaultBranch === null || repository.defaultBranch === branch;

export function canPushToBranch(ctx: RequestContext, facts: ProjectFacts, repository: RepositoryInfo, branch: string): boolean {
  if (!can(ctx.actor, 'project:push_code', facts)) return false;
  return !isProtectedBranch(repository, branch) || can(ctx.actor, 'project:push_to_protected_branch', facts);
}
