// Pipelines for pushes (GitLab's PostReceive -> CreatePipelineWorker): after a push is stored, each branch or tag it
// created or moved gets a `push` pipeline when its new commit has a `.gitlab-ci.yml`, made by the `post_receive` job
// the push's batch enqueued (repositories/store/ref-write.ts), as the pusher, after the push's response. One statement reads the
// configurations of all the pushed refs; a push without any costs nothing more. The push has already happened: a
// pipeline that cannot be made is logged, never turned into the push's failure.
import { openMergeRequestsFrom } from '../../db/queries/pipelines/merge-requests.ts';
import { findPipelineProject } from '../../db/queries/pipelines.ts';
import { createMergeRequestPipelines } from './merge-request.ts';
import { blobsAtPaths, commitsByOids } from '../repositories/lookups.ts';
import { findUsersByIds } from '../users/lookups.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { userActor } from '../lib/auth.ts';
import { jobContext, type RequestContext } from '../lib/context.ts';
import { log } from '../lib/log.ts';
import { CONFIG_READ_LIMIT, configPathOf } from '../ci/config-path.ts';

export interface PushedRef {
  projectId: number;
  /** Full ref name (`refs/heads/main`, `refs/tags/v1`). */
  name: string;
  old: string | null;
  new: string | null;
}

const utf8 = new TextDecoder();

/** The open merge requests from the pushed branches get their merge request pipelines at the new heads. */
async function mergeRequestPipelinesFor(ctx: RequestContext, pushed: readonly PushedRef[]) {
  const byProject = new Map<number, PushedRef[]>();
  for (const r of pushed) if (r.name.startsWith('refs/heads/')) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), r]);
  for (const [projectId, refs] of byProject) {
    const open = await openMergeRequestsFrom(
      ctx.db,
      projectId,
      refs.map((r) => r.name.slice('refs/heads/'.length)),
    );
    await createMergeRequestPipelines(
      ctx,
      open.map((mr) => ({
        id: Number(mr.id),
        iid: Number(mr.iid),
        title: mr.title,
        sourceProjectId: projectId,
        sourceBranch: mr.source_branch,
        targetProjectId: Number(mr.target_project_id),
        targetBranch: mr.target_branch,
        sha: refs.find((r) => r.name === `refs/heads/${mr.source_branch}`)!.new!,
      })),
    );
  }
}

/** Chain::Skip's SKIP_PATTERN: a commit message asking for no pipeline. */
const SKIP_PATTERN = /\[(ci[ _-]skip|skip[ _-]ci)\]/i;

/** The push's options for its pipelines: `ci.skip`, `ci.variable` (pipeline variables). */
export interface CiPushOptions {
  ciSkip?: boolean;
  variables?: readonly { key: string; value: string }[];
}

export async function createPushPipelines(ctx: RequestContext, refs: readonly PushedRef[], options: CiPushOptions = {}): Promise<void> {
  const pushed = refs.filter((r) => r.new !== null && (r.name.startsWith('refs/heads/') || r.name.startsWith('refs/tags/')));
  if (!pushed.length) return;
  try {
    // A push is one project's: its configuration path decides which file each pushed commit is read for.
    const project = await findPipelineProject(ctx.db, pushed[0]!.projectId);
    if (!project) return;
    const configs = await blobsAtPaths(
      ctx.db,
      pushed.map((r) => ({ projectId: r.projectId, commitOid: r.new!, path: configPathOf(project) })),
      CONFIG_READ_LIMIT,
    );
    if (!configs.length) return;
    // Chain::Skip: the `ci.skip` push option or `[ci skip]` in the commit's message keeps the pipeline, skipped.
    const messages = new Map(
      (
        await commitsByOids(
          ctx.db,
          project.id,
          configs.map((c) => c.commitOid),
        )
      ).map((c) => [c.oid, c.message]),
    );
    // The parser and planner (yaml, re2js) load only when a pushed commit has a configuration: every push path
    // (commits, branches, merges) imports this module, and cold starts pay for what module graphs evaluate.
    const { createPipeline } = await import('./create.ts');
    for (const ref of pushed) {
      const config = configs.find((c) => c.projectId === ref.projectId && c.commitOid === ref.new);
      if (!config || ref.projectId !== project.id) continue;
      const tag = ref.name.startsWith('refs/tags/');
      await createPipeline(ctx, {
        project,
        ref: ref.name.slice(tag ? 'refs/tags/'.length : 'refs/heads/'.length),
        tag,
        sha: ref.new!,
        beforeSha: ref.old,
        source: 'push',
        userId: ctx.actor.user?.id ?? null,
        repositoryConfig: utf8.decode(config.data),
        skip: options.ciSkip === true || SKIP_PATTERN.test(messages.get(ref.new!) ?? ''),
        ...(options.variables?.length && { variables: options.variables.map((v) => ({ ...v, variableType: 'env_var' as const })) }),
      });
    }
    await mergeRequestPipelinesFor(ctx, pushed);
  } catch (error) {
    log('error', 'push pipeline not created', { requestId: ctx.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

/** One change of a PostReceive job: a branch or tag the push created or moved (before: 40 zeros for a new one). */
export interface PushChange {
  project_id: number;
  ref: string;
  before: string;
  after: string;
}

const BLANK_SHA = '0'.repeat(40);

/** PostReceive: the push's pipelines, as the pusher (a pusher deleted since has none made, as GitLab's worker skips). */
export async function createPipelinesAfterPush(
  job: JobContext,
  push: { userId: number; changes: readonly PushChange[] } & CiPushOptions,
): Promise<{ refs: number }> {
  if (!job.config) throw new Error('post_receive needs the instance configuration');
  const [user] = await findUsersByIds(job.ctx.db, [push.userId]);
  if (!user) return { refs: 0 };
  const ctx = jobContext(job.ctx, job.config, userActor(user), `post_receive:${push.changes[0]?.project_id}`);
  await createPushPipelines(
    ctx,
    push.changes.map((c) => ({ projectId: c.project_id, name: c.ref, old: c.before === BLANK_SHA ? null : c.before, new: c.after })),
    { ciSkip: push.ciSkip === true, variables: push.variables ?? [] },
  );
  return { refs: push.changes.length };
}
