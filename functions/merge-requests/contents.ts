// What hangs off one merge request and is read from the repository: its commits, its changes (the diff of a
// version), its versions, and the participants. Each costs a fixed number of statements whatever the size of the MR.
import { findDiffVersion, listDiffVersions } from '../../db/queries/merge-requests/versions.ts';
import { changedPaths, commitsBetween } from '../repositories/lookups.ts';
import * as q from '../../db/queries/merge-requests.ts';
import type { MergeRequestDiffRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound } from '../lib/errors.ts';
import { projectWebUrl } from '../projects/schemas.ts';
import { renderDiffs } from '../repositories/diffs/diffs.ts';
import type { RepositoryContext } from '../repositories/entities.ts';
import { commitView } from '../repositories/service.ts';
import { findMergeRequest, type MergeRequestRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The three SHAs of a version (the latest one's JSON, or a stored row). */
type VersionShas = { baseCommitSha: string | null; startCommitSha: string; headCommitSha: string };

/** The repository context of an MR's commits: its source project's (GitLab's MergeRequest#commits' project). */
function commitContext(ctx: RequestContext, view: q.MergeRequestView): RepositoryContext {
  const path = view.sourceProjectPath ?? view.projectPath;
  return { projectId: view.mr.sourceProjectId ?? view.mr.targetProjectId, projectWebUrl: projectWebUrl(ctx.config, { pathWithNamespace: path }) };
}

/** The version's commits, newest first (MergeRequestDiff#commits). */
async function versionCommits(ctx: RequestContext, projectId: number, v: VersionShas) {
  const between = await commitsBetween(ctx.db, projectId, v.startCommitSha, v.headCommitSha);
  return between.commits.map(commitView).reverse();
}

/** The version's diffs: from its merge base (or start, for unrelated histories) to its head. */
async function versionDiffs(ctx: RequestContext, projectId: number, v: VersionShas) {
  const changed = await changedPaths(ctx.db, projectId, [{ oldCommit: v.baseCommitSha ?? v.startCommitSha, newCommit: v.headCommitSha }]);
  return renderDiffs(changed);
}

/** GET .../merge_requests/:iid/commits */
export async function mergeRequestCommits({ ctx, input }: Verb<MergeRequestRef>) {
  const { view } = await findMergeRequest(ctx, input);
  const latest = view.latestDiff;
  const commits = latest ? await versionCommits(ctx, view.mr.targetProjectId, latest) : [];
  return { view, commits, context: commitContext(ctx, view) };
}

/** GET .../merge_requests/:iid/changes: the MR and the latest version's diffs. */
export async function mergeRequestChanges({ ctx, input }: Verb<MergeRequestRef>) {
  const found = await findMergeRequest(ctx, input, { subscribed: true });
  const latest = found.view.latestDiff;
  const diffs = latest ? await versionDiffs(ctx, found.view.mr.targetProjectId, latest) : [];
  return { ...found, diffs: diffs.map((d) => d.entry) };
}

/** GET .../merge_requests/:iid/versions: newest first. */
export async function mergeRequestVersions({ ctx, input }: Verb<MergeRequestRef>) {
  const { view } = await findMergeRequest(ctx, input);
  return listDiffVersions(ctx.db, view.mr.id);
}

/** GET .../merge_requests/:iid/versions/:version_id: the version with its commits and diffs (404 `Not found`). */
export async function mergeRequestVersion({ ctx, input }: Verb<MergeRequestRef & { versionId: number | null }>) {
  const { view } = await findMergeRequest(ctx, input);
  const version: MergeRequestDiffRow | undefined = input.versionId === null ? undefined : await findDiffVersion(ctx.db, view.mr.id, input.versionId);
  if (!version) throw recordNotFound();
  const projectId = view.mr.targetProjectId;
  const [commits, diffs] = await Promise.all([versionCommits(ctx, projectId, version), versionDiffs(ctx, projectId, version)]);
  return { version, commits, diffs: diffs.map((d) => d.entry), context: commitContext(ctx, view) };
}

/** MergeRequest#diverged_commits_count: commits the target has that the source lacks (0 once merged or closed). */
export async function divergedCommitsCount(ctx: RequestContext, view: q.MergeRequestView): Promise<number> {
  if (view.mr.state !== 'opened' || !view.sourceHead || !view.targetTip) return 0;
  return (await commitsBetween(ctx.db, view.mr.targetProjectId, view.sourceHead, view.targetTip)).commits.length;
}
