// Creating a commit from actions (POST repository/commits, and the files API on top of it), as GitLab 13.6's
// Files::MultiService / Commits::CreateService with Gitaly's UserCommitFiles: one read (the start revision and the
// directories the actions touch), the objects built here, then ONE batch that stores them, moves the branch by
// compare-and-swap and records the push event. A lost race answers GitLab's "Could not update branch" and stores
// nothing.
import { logPage } from '../../../db/queries/repositories/reads.ts';
import { readTouchedDirs } from '../../../db/queries/repositories/dirs.ts';
import { findRef, createRepository } from '../../../db/queries/repositories/refs.ts';
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage } from '../../lib/errors.ts';
import { ActionError, applyActions, checkPath, splitPath, touchedDirs, type FileAction } from './commit-actions.ts';
import { checkActionCount, checkDirectories, checkPathSize, fileContent } from './commit-limits.ts';
import { encodeCommit } from '../git/commit.ts';
import { isValidBranchName } from './ref-names.ts';
import { refConflict, writeRefs } from '../store/ref-write.ts';
import type { CommitActionParams } from '../schemas.ts';
import type { RepositoryInfo } from '../service.ts';
import { prepareWrite, RefConflictError } from '../store/store.ts';
import type { CommitView } from '../entities.ts';

export interface CommitRequest {
  branch: string;
  message: string;
  actions: readonly CommitActionParams[];
  startBranch?: string | undefined;
  startSha?: string | undefined;
  authorName?: string | undefined;
  authorEmail?: string | undefined;
  force?: boolean | undefined;
  /** The project the start branch or sha is read in (`start_project`: the fork's source; the same pool). */
  startProjectId?: number | undefined;
  /**
   * The refusal for a stale `last_commit_id`: Files::MultiService#validate_file_status! says "The file has changed
   * since you started editing it: <path>" (commits API, the default), Files::UpdateService "You are attempting to
   * update a file that has changed since you started editing it." (files API).
   */
  changedMessage?: ((path: string) => string) | undefined;
}

const changedSince = (path: string) => `The file has changed since you started editing it: ${path}`;

/**
 * The request's actions as FileActions: paths split, sized and checked (a path git refuses is Gitaly's "invalid
 * path", before anything is read), the directories they reach counted, content decoded and size-checked (400s).
 */
function toFileActions(ctx: RequestContext, actions: readonly CommitActionParams[]): { actions: FileAction[]; dirs: Uint8Array[] } {
  checkActionCount(actions.length);
  const split = (path: string) => {
    const components = splitPath(path);
    checkPathSize(components);
    return components;
  };
  const fileActions = actions.map((a): FileAction => {
    const path = split(a.file_path);
    // A file is written as a regular file; the tree editor checks again with the mode an entry ends up with.
    if (a.action !== 'delete') checkPath(path, '100644');
    return {
      action: a.action,
      path,
      previousPath: a.action === 'move' ? split(a.previous_path ?? '') : undefined,
      content: fileContent(ctx, a.file_path, a.content, a.encoding),
      executeFilemode: a.execute_filemode,
    };
  });
  const dirs = touchedDirs(fileActions);
  checkDirectories(dirs);
  return { actions: fileActions, dirs };
}

/**
 * Commits `req` to `repository` (push permission already checked by the caller, as the two REST faces word it
 * differently). Returns the new commit as the serializers see it. Every refusal is a 400 `{"message": ...}`.
 */
export async function commitToBranch(ctx: RequestContext, repository: RepositoryInfo, req: CommitRequest): Promise<CommitView> {
  const user = ctx.actor.user!;
  let actions: FileAction[];
  let dirs: Uint8Array[];
  try {
    ({ actions, dirs } = toFileActions(ctx, req.actions));
  } catch (error) {
    if (error instanceof ActionError) throw invalidMessage(error.message);
    throw error;
  }
  const empty = repository.defaultBranch === null;
  // commits.rb: `attrs[:start_branch] ||= attrs[:branch_name] unless attrs[:start_sha]`.
  const startBranch = req.startSha === undefined ? (req.startBranch ?? req.branch) : undefined;
  const startProjectId = req.startProjectId ?? repository.projectId;
  // Commits::CreateService#different_branch?: another start branch, a start sha, or another start project.
  const differentBranch = req.startSha !== undefined || startBranch !== req.branch || startProjectId !== repository.projectId;
  const start = empty ? undefined : (req.startSha ?? `refs/heads/${startBranch}`);
  const [base, current] = await Promise.all([
    start === undefined ? undefined : readTouchedDirs(ctx.db, startProjectId, start, dirs),
    differentBranch && !empty ? findRef(ctx.db, repository.projectId, `refs/heads/${req.branch}`) : undefined,
  ]);
  if (start !== undefined && !base) {
    // Commits::CreateService#validate_on_branch!; a start_sha that names no commit fails in Gitaly.
    throw invalidMessage(req.startSha !== undefined ? `Cannot find start_sha '${req.startSha}'` : 'You can only create or edit files when you are on a branch');
  }
  if (differentBranch && !empty) {
    // Commits::CreateService#validate_branch_existence! and #validate_new_branch_name!.
    if (current !== undefined && !req.force) {
      throw invalidMessage(`A branch called '${req.branch}' already exists. Switch to that branch in order to make changes`);
    }
    if (current === undefined && !isValidBranchName(req.branch)) {
      throw invalidMessage(`Something went wrong when we tried to create '${req.branch}' for you: Branch name is invalid`);
    }
  } else if (empty && !isValidBranchName(req.branch)) throw invalidMessage('Branch name is invalid');
  await checkLastCommits(ctx, repository.projectId, base?.commit.oid, req.actions, req.changedMessage ?? changedSince);

  let applied;
  try {
    applied = await applyActions(base?.entries ?? [], actions);
  } catch (error) {
    if (error instanceof ActionError) throw invalidMessage(error.message);
    throw error;
  }
  const now = Math.floor(Date.now() / 1000);
  const committer = { name: user.name, email: user.email, time: now, tz: '+0000' };
  const author = { ...committer, name: req.authorName ?? user.name, email: req.authorEmail ?? user.email };
  const parents = base ? [base.commit.oid] : [];
  const body = encodeCommit({ tree: applied.treeOid, parents, author, committer, headers: [], message: new TextEncoder().encode(req.message) });
  const write = await prepareWrite([...applied.objects, { type: 'commit', body }]);
  const oid = write.oids[write.oids.length - 1]!;
  // The branch moves from where it is now: the start commit when committing onto it, else the target's own tip.
  const old = differentBranch ? (current ?? null) : (base?.commit.oid ?? null);
  const poolId = repository.poolId ?? (await createRepository(ctx.db, repository.projectId));
  try {
    await writeRefs(ctx, {
      poolId,
      write,
      refs: [{ projectId: repository.projectId, name: `refs/heads/${req.branch}`, old, new: oid, commitCount: 1, lastCommitMessage: req.message }],
      head: empty ? { projectId: repository.projectId, branch: req.branch } : undefined,
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw refConflict(req.branch);
    throw error;
  }
  const at = new Date(now * 1000);
  return {
    oid,
    parentOids: parents,
    authorName: author.name,
    authorEmail: author.email,
    authoredAt: at,
    authorTz: author.tz,
    committerName: committer.name,
    committerEmail: committer.email,
    committedAt: at,
    committerTz: committer.tz,
    message: req.message,
  };
}

/**
 * Files::MultiService#validate_file_status: an action with `last_commit_id` is refused when the last commit that
 * changed its path (from the start revision) is another one. One log read per such path; none without them.
 */
async function checkLastCommits(
  ctx: RequestContext,
  projectId: number,
  startOid: string | undefined,
  actions: readonly CommitActionParams[],
  message: (path: string) => string,
) {
  const checked = actions.filter((a) => a.last_commit_id !== undefined && a.action !== 'create');
  if (!checked.length || startOid === undefined) return;
  const last = await Promise.all(checked.map((a) => logPage(ctx.db, { projectId, rev: startOid, path: a.file_path, limit: 1, offset: 0 })));
  checked.forEach((a, i) => {
    const found = last[i]?.commits[0]?.oid;
    if (found !== undefined && found !== a.last_commit_id) throw invalidMessage(message(a.file_path));
  });
}
