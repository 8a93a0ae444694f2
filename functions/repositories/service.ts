// What every repository verb (read or write) starts with: the project under the policy's rule for the action, and
// its repository. Shared by the read verbs (reads-*.ts) and the write verbs; kept small on purpose.
import { findRepository, type ProtectionRule, type TagProtectionRule } from '../../db/queries/repositories/refs.ts';
import type { CommitInfo } from '../../db/queries/repositories/sql.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, type ProjectFacts } from '../lib/policy.ts';
import { projectFacts, findProject } from '../projects/service.ts';
import { projectWebUrl } from '../projects/schemas.ts';
import type { CommitView, RepositoryContext } from './entities.ts';

export type RepositoryAction = 'project:download_code' | 'project:push_code';

export interface RepositoryProject {
  project: ProjectView;
  facts: ProjectFacts;
  /** What the serializers need (web URLs, project id). */
  context: RepositoryContext;
}

export interface RepositoryInfo {
  projectId: number;
  /** null: the project has no repository row yet (an empty repository; a first write must create it). */
  poolId: number | null;
  /** The default branch's short name; null until a first branch exists. */
  defaultBranch: string | null;
  /** The project's protected branches (push-access.ts reads them). */
  protectedBranches: ProtectionRule[];
  /** The project's protected tags (push-access.ts reads them). */
  protectedTags: TagProtectionRule[];
}

/**
 * The project for a repository action: 404 `Project Not Found` when the actor cannot read it, 403 when it can but
 * the action is refused (GitLab's find_project! then authorize!). One statement: the read statements of
 * repositories/reads.ts find the repository from the project id themselves, so the budgeted reads (a file, a tree
 * page, a log page) need no repository row.
 */
export async function projectFor(ctx: RequestContext, ref: Ref | null, action: RepositoryAction): Promise<RepositoryProject> {
  const project = await findProject(ctx, ref);
  const facts = projectFacts(project);
  assertCan(ctx.actor, action, facts);
  return { project, facts, context: { projectId: project.project.id, projectWebUrl: projectWebUrl(ctx.config, project.project) } };
}

/**
 * The project for the protected-ref settings (protected_branches.rb and protected_tags.rb: find_project!, then
 * authorize_admin_project): 404 for a project the caller cannot see, 403 below maintainer. Its id.
 */
export async function adminProjectId(ctx: RequestContext, ref: Ref | null): Promise<number> {
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:update', projectFacts(project));
  return project.project.id;
}

/** projectFor, plus the repository row (one more statement): for writes and for reads that need the default branch. */
export async function repositoryFor(
  ctx: RequestContext,
  ref: Ref | null,
  action: RepositoryAction,
): Promise<RepositoryProject & { repository: RepositoryInfo }> {
  const found = await projectFor(ctx, ref, action);
  return { ...found, repository: await repositoryInfo(ctx, found.project.project.id) };
}

/** The project's repository as the push-access rules read it (an empty one when the project has no row yet). */
export async function repositoryInfo(ctx: Pick<RequestContext, 'db'>, projectId: number): Promise<RepositoryInfo> {
  const row = await findRepository(ctx.db, projectId);
  return {
    projectId,
    poolId: row?.poolId ?? null,
    defaultBranch: row?.defaultBranch ?? null,
    protectedBranches: row?.protectedBranches ?? [],
    protectedTags: row?.protectedTags ?? [],
  };
}

/** A stored commit row (times in epoch seconds) as the serializers' CommitView. */
export function commitView(info: CommitInfo): CommitView {
  return {
    oid: info.oid,
    parentOids: info.parentOids,
    authorName: info.author.name,
    authorEmail: info.author.email,
    authoredAt: new Date(info.author.time * 1000),
    authorTz: info.author.tz,
    committerName: info.committer.name,
    committerEmail: info.committer.email,
    committedAt: new Date(info.committer.time * 1000),
    committerTz: info.committer.tz,
    message: info.message,
  };
}
