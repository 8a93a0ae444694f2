// Merge request pipelines (GitLab 13.6 MergeRequests::CreatePipelineService): the head of a merge request's source
// branch gets a `merge_request_event` pipeline, stored under `refs/merge-requests/<iid>/head`, when its configuration
// has jobs for that source (`rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`, `only: [merge_requests]`).
// A configuration without such jobs makes none, silently, as GitLab's service drops "No stages / jobs". Made when the
// merge request is opened and on every push to its source branch; like push pipelines, never the request's failure.
import { findPipelineProject } from '../../db/queries/pipelines.ts';
import { blobsAtPaths } from '../repositories/lookups.ts';
import type { RequestContext } from '../lib/context.ts';
import { log } from '../lib/log.ts';
import { CONFIG_READ_LIMIT, configPathOf } from '../ci/config-path.ts';

export interface MergeRequestHead {
  id: number;
  iid: number;
  title: string;
  sourceProjectId: number;
  sourceBranch: string;
  targetProjectId: number;
  targetBranch: string;
  /** The source branch's head commit. */
  sha: string;
}

const utf8 = new TextDecoder();

export async function createMergeRequestPipelines(ctx: RequestContext, heads: readonly MergeRequestHead[]): Promise<void> {
  if (!heads.length) return;
  try {
    // The source projects (one, almost always), whose configuration paths say which file each head is read for.
    const projects = new Map<number, NonNullable<Awaited<ReturnType<typeof findPipelineProject>>>>();
    for (const id of new Set(heads.map((h) => h.sourceProjectId))) {
      const project = await findPipelineProject(ctx.db, id);
      if (project) projects.set(id, project);
    }
    const configs = await blobsAtPaths(
      ctx.db,
      heads.flatMap((h) => {
        const project = projects.get(h.sourceProjectId);
        return project ? [{ projectId: h.sourceProjectId, commitOid: h.sha, path: configPathOf(project) }] : [];
      }),
      CONFIG_READ_LIMIT,
    );
    if (!configs.length) return;
    const { createPipeline } = await import('./create.ts');
    for (const mr of heads) {
      const config = configs.find((c) => c.projectId === mr.sourceProjectId && c.commitOid === mr.sha);
      const project = projects.get(mr.sourceProjectId);
      if (!config || !project) continue;
      await createPipeline(ctx, {
        project,
        ref: mr.sourceBranch,
        pipelineRef: `refs/merge-requests/${mr.iid}/head`,
        tag: false,
        sha: mr.sha,
        source: 'merge_request_event',
        userId: ctx.actor.user?.id ?? null,
        repositoryConfig: utf8.decode(config.data),
        // Ci::Pipeline#merge_request_variables (CI_MERGE_REQUEST_ prefixed by the plan).
        mergeRequest: {
          id: mr.id,
          values: {
            ID: String(mr.id),
            IID: String(mr.iid),
            TITLE: mr.title,
            REF_PATH: `refs/merge-requests/${mr.iid}/head`,
            PROJECT_ID: String(mr.targetProjectId),
            SOURCE_BRANCH_NAME: mr.sourceBranch,
            SOURCE_BRANCH_SHA: mr.sha,
            SOURCE_PROJECT_ID: String(mr.sourceProjectId),
            TARGET_BRANCH_NAME: mr.targetBranch,
            EVENT_TYPE: 'detached',
          },
        },
      });
    }
  } catch (error) {
    log('error', 'merge request pipeline not created', {
      requestId: ctx.requestId,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}
