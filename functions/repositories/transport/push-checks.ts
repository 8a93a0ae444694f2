// GitLab's pre-receive checks of a push, ref by ref (Gitlab::Checks::PushCheck, BranchCheck and TagCheck of 13.6,
// reached through /internal/allowed), over the rules every branch and tag write shares (writes/push-access.ts). The
// first refusal stops the push: git prints `remote: GitLab: <message>` and every ref `pre-receive hook declined`.
import type { RequestContext } from '../../lib/context.ts';
import { can, type ProjectFacts } from '../../lib/policy.ts';
import type { RepositoryInfo } from '../service.ts';
import { canCreateTag, canPushToBranch, isProtectedBranch, isProtectedTag } from '../writes/push-access.ts';

export interface RefChange {
  /** Full ref name. */
  name: string;
  /** null: created. */
  old: string | null;
  /** null: deleted. */
  new: string | null;
  /** An update whose old commit is not in the new one's history. */
  forced: boolean;
}

export interface PushScope {
  ctx: RequestContext;
  facts: ProjectFacts;
  repository: RepositoryInfo;
  /** The project's full path and web URL (the empty-project message names them). */
  fullPath: string;
  webUrl: string;
}

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

/** The message GitLab refuses `change` with, or null when it may go through. */
export function pushRefusal(scope: PushScope, change: RefChange): string | null {
  const { ctx, facts, repository } = scope;
  if (!can(ctx.actor, 'project:push_code', facts)) return 'You are not allowed to push code to this project.';
  if (change.name.startsWith(HEADS)) return branchRefusal(scope, change, change.name.slice(HEADS.length));
  if (change.name.startsWith(TAGS)) {
    const tag = change.name.slice(TAGS.length);
    // TagCheck: an existing tag is changed or deleted only with admin_tag (developers: push_code, checked above).
    if (!isProtectedTag(repository, tag)) return null;
    if (change.old !== null && change.new !== null) return 'Protected tags cannot be updated.';
    if (change.new === null) return 'Protected tags cannot be deleted.';
    return canCreateTag(ctx, facts, repository, tag) ? null : 'You are not allowed to create this tag as it is protected.';
  }
  return null;
}

function branchRefusal(scope: PushScope, change: RefChange, branch: string): string | null {
  const { ctx, facts, repository } = scope;
  if (change.new === null && branch === repository.defaultBranch) return 'The default branch of a project cannot be deleted.';
  if (change.new !== null && /^[0-9a-f]{40}$/i.test(branch)) return 'You cannot create a branch with a 40-character hexadecimal branch name.';
  if (!isProtectedBranch(repository, branch)) return null;
  // 13.6 refuses every force push to a protected branch (per-branch "allow force push" came in 13.10).
  if (change.forced) return 'You are not allowed to force push code to a protected branch on this project.';
  if (change.new === null) {
    if (!can(ctx.actor, 'project:push_to_protected_branch', facts)) {
      return 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.';
    }
    return 'You can only delete protected branches using the web interface.';
  }
  if (canPushToBranch(ctx, facts, repository, branch)) return null;
  if (repository.defaultBranch === null) {
    return [
      `A default branch (e.g. master) does not yet exist for ${scope.fullPath}`,
      'Ask a project Owner or Maintainer to create a default branch:',
      '',
      `  ${scope.webUrl}/-/project_members`,
    ].join('\n');
  }
  return 'You are not allowed to push code to protected branches on this project.';
}
