// Branch writes, as GitLab 13.6's lib/api/branches.rb with CreateBranchService, ValidateNewBranchService,
// DeleteBranchService and DeleteMergedBranchesService: each a ref compare-and-swap with its push event in one batch.
import { findRef, listRefs } from '../../../db/queries/repositories/refs.ts';
import { logPage, resolveRevision } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage, notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { commitToBranch } from './commits.ts';
import { canMergeToBranch, canPushToBranch, isProtectedBranch } from './push-access.ts';
import { isValidBranchName } from './ref-names.ts';
import { refConflict, writeRefs, type RefMove } from '../store/ref-write.ts';
import { getBranch } from '../reads/refs.ts';
import { repositoryFor } from '../service.ts';
import { RefConflictError } from '../store/store.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const HEADS = 'refs/heads/';

/** Moves refs; a lost compare-and-swap is GitLab's "Could not update branch" for the (first) branch. */
async function moveRefs(ctx: RequestContext, poolId: number, refs: RefMove[]) {
  try {
    await writeRefs(ctx, { poolId, refs });
  } catch (error) {
    if (error instanceof RefConflictError) throw refConflict(refs[0]!.name.slice(HEADS.length));
    throw error;
  }
}

/**
 * POST repository/branches (`authorize_push_project`, then CreateBranchService): an empty repository first gets
 * `master` with an empty README.md (CreateBranchService#create_master_branch); the name is checked
 * (ValidateNewBranchService: "Branch name is invalid", "Branch already exists"), then `ref` must name a commit
 * ("Invalid reference name: <ref>"). Every refusal is 400 `{"message": ...}`. Answers the branch as GET does.
 */
export async function createBranch({ ctx, input }: Verb<{ project: Ref | null; branch: string; ref: string }>) {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const { repository } = found;
  if (repository.defaultBranch === null) {
    // master is protected from its first push (push-access.ts): GitLab's pre-receive BranchCheck refuses the
    // README commit of a developer, and CreateBranchService answers its message.
    if (!canPushToBranch(ctx, found.facts, repository, 'master'))
      throw invalidMessage('You are not allowed to push code to protected branches on this project.');
    await commitToBranch(ctx, repository, {
      branch: 'master',
      message: 'Add README.md',
      actions: [{ action: 'create', file_path: 'README.md', content: '', encoding: 'text' }],
    });
    repository.defaultBranch = 'master';
    repository.protectedBranches = [...repository.protectedBranches, { name: 'master', push: 40, merge: 40 }];
  }
  if (!isValidBranchName(input.branch)) throw invalidMessage('Branch name is invalid');
  const [existing, target] = await Promise.all([
    findRef(ctx.db, repository.projectId, `${HEADS}${input.branch}`),
    resolveRevision(ctx.db, repository.projectId, input.ref),
  ]);
  if (existing !== undefined) throw invalidMessage('Branch already exists');
  if (!target) throw invalidMessage(`Invalid reference name: ${input.ref}`);
  // Gitlab::Checks::BranchCheck#protected_branch_creation_checks (the pre-receive hook, run once the ref resolved):
  // a branch a protection rule covers is created only by who may merge into it. (Its other check, that the commit
  // is already on a protected branch, is not made here.)
  if (isProtectedBranch(repository, input.branch) && !canMergeToBranch(ctx, found.facts, repository, input.branch)) {
    throw invalidMessage('You are not allowed to create protected branches on this project.');
  }
  // A branch whose name is taken between the check and the write loses the compare-and-swap (old: absent).
  try {
    await writeRefs(ctx, {
      poolId: repository.poolId!,
      refs: [{ projectId: repository.projectId, name: `${HEADS}${input.branch}`, old: null, new: target.oid, commitCount: 0, lastCommitMessage: null }],
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw invalidMessage('Branch already exists');
    throw error;
  }
  return getBranch({ ctx, input: { project: input.project, branch: input.branch } });
}

/**
 * DELETE repository/branches/:branch: `find_branch!` (404 Branch Not Found), then the checks GitLab's pre-receive
 * BranchCheck makes (lib/gitlab/checks/branch_check.rb), answered 400 by DeleteBranchService: the default branch
 * first, then a protected branch (13.6 deletes protected branches through the web interface only).
 */
export async function deleteBranch({ ctx, input }: Verb<{ project: Ref | null; branch: string }>) {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const { repository } = found;
  const name = `${HEADS}${input.branch}`;
  const oid = await findRef(ctx.db, repository.projectId, name);
  if (oid === undefined) throw notFound('Branch');
  if (input.branch === repository.defaultBranch) throw invalidMessage('The default branch of a project cannot be deleted.');
  if (isProtectedBranch(repository, input.branch)) throw invalidMessage('You can only delete protected branches using the web interface.');
  await moveRefs(ctx, repository.poolId!, [{ projectId: repository.projectId, name, old: oid, new: null, commitCount: 0, lastCommitMessage: null }]);
}

/** How far back the default branch's history is read to find merged branches (as reads/refs.ts's `merged`). */
const MERGED_HORIZON = 5000;

/**
 * DELETE repository/merged_branches: 202 in GitLab (DeleteMergedBranchesService runs in a worker). Done at once
 * here, so the answer is already true: every branch whose tip is in the default branch's history, except the
 * default branch and protected ones, is removed with its push event, in one batch.
 */
export async function deleteMergedBranches({ ctx, input }: Verb<{ project: Ref | null }>) {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const { repository } = found;
  if (repository.defaultBranch === null) return;
  const [branches, log] = await Promise.all([
    listRefs(ctx.db, repository.projectId, HEADS),
    logPage(ctx.db, { projectId: repository.projectId, rev: `${HEADS}${repository.defaultBranch}`, limit: MERGED_HORIZON, offset: 0 }),
  ]);
  if (!log) return;
  const history = new Set(log.commits.map((c) => c.oid));
  const merged = branches.filter((b) => {
    const short = b.name.slice(HEADS.length);
    return !isProtectedBranch(repository, short) && b.oid !== log.commitOid && history.has(b.oid);
  });
  if (!merged.length) return;
  await moveRefs(
    ctx,
    repository.poolId!,
    merged.map((b) => ({ projectId: repository.projectId, name: b.name, old: b.oid, new: null, commitCount: 0, lastCommitMessage: null })),
  );
}
