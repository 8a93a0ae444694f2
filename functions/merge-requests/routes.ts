// GitLab 13.6 lib/api/merge_requests.rb: the three lists, one MR and what hangs off it. Merging lives in
// merge.ts; time tracking and subscriptions in tracking-routes.ts.
import { Hono, type Context } from 'hono';
import type { AppEnv, Config } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginateArray, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, pathId, schema } from '../lib/validate.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import { toCommit } from '../repositories/entities.ts';
import { divergedCommitsCount, mergeRequestChanges, mergeRequestCommits, mergeRequestVersion, mergeRequestVersions } from './contents.ts';
import {
  CreateMergeRequestInput,
  GetMergeRequestInput,
  MergeInput,
  RebaseInput,
  ListMergeRequestsInput,
  MergeRequestPath,
  toMergeRequest,
  toMergeRequestBasic,
  toMergeRequestSimple,
  toMergeRequestVersion,
  UpdateMergeRequestInput,
  type ListMergeRequestsParams,
} from './schemas.ts';
import * as mrs from './service.ts';
import type { IssuableListSource } from '../issuables/list.ts';
import { createMergeRequest } from './create.ts';
import { updateMergeRequest } from './update.ts';
import { mergeRequestHeadPipeline } from './pipelines.ts';
import { cancelMergeWhenPipelineSucceeds, canMerge, mergeMergeRequest, mergeRefMergeRequest, mergeRequestClosesIssues, rebaseMergeRequest } from './merge.ts';
import { toIssue } from '../issues/schemas.ts';

export const mergeRequestRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const GroupPath = schema(() => z.object({ id: groupRef() }));
export const SingleMergeRequestPath = schema(() => z.object({ id: projectRef(), ...MergeRequestPath() }));
const PageInput = schema(() => z.object(paginationParams()));
const VersionPath = schema(() => z.object({ id: projectRef(), ...MergeRequestPath(), version_id: pathId() }));

const listEntity = (input: ListMergeRequestsParams, config: Config) => (v: MergeRequestView) =>
  input.view === 'simple' ? toMergeRequestSimple(v, config) : toMergeRequestBasic(v, config, { labelDetails: input.with_labels_details === true });

async function list(c: Context<AppEnv>, source: IssuableListSource, input: ListMergeRequestsParams) {
  const { ctx } = c.var;
  const found = await mrs.listMergeRequests({ ctx, input: { source, params: input } });
  const rows = await paginate(c, pageRequest(input), found.fetch, found.count);
  return c.json(rows.map(listEntity(input, ctx.config)));
}

mergeRequestRoutes.get('/merge_requests', params(ListMergeRequestsInput), (c) => list(c, { kind: 'all' }, c.req.valid('query')));
mergeRequestRoutes.get('/projects/:id/merge_requests', path(ProjectPath), params(ListMergeRequestsInput), (c) =>
  list(c, { kind: 'project', ref: c.req.valid('param').id }, c.req.valid('query')),
);
mergeRequestRoutes.get('/groups/:id/merge_requests', path(GroupPath), params(ListMergeRequestsInput), (c) =>
  list(c, { kind: 'group', ref: c.req.valid('param').id }, c.req.valid('query')),
);

/** Entities::MergeRequest for one record, with the caller's can_merge. */
async function single(
  c: Context<AppEnv>,
  found: { project: Parameters<typeof canMerge>[1]; view: MergeRequestView; canMerge?: boolean },
  extra: { divergedCommitsCount?: number; renderHtml?: boolean } = {},
) {
  const { ctx } = c.var;
  const [mergeable, headPipeline] = await Promise.all([
    found.canMerge ?? canMerge(ctx, found.project, found.view),
    mergeRequestHeadPipeline(ctx, found.project, found.view),
  ]);
  return toMergeRequest(found.view, ctx.config, { subscribed: found.view.subscribed, canMerge: mergeable, headPipeline, ...extra });
}

mergeRequestRoutes.post('/projects/:id/merge_requests', path(ProjectPath), params(CreateMergeRequestInput), async (c) => {
  const { ctx } = c.var;
  const view = await createMergeRequest({ ctx, input: { project: c.req.valid('param').id, params: c.req.valid('query') } });
  const found = await mrs.findMergeRequest(ctx, { project: { id: view.mr.targetProjectId }, iid: view.mr.iid }, { subscribed: true });
  return c.json(await single(c, found), 201);
});

const base = '/projects/:id/merge_requests/:merge_request_iid';

mergeRequestRoutes.get(base, path(SingleMergeRequestPath), params(GetMergeRequestInput), async (c) => {
  const { ctx } = c.var;
  const { id, merge_request_iid } = c.req.valid('param');
  const options = c.req.valid('query');
  const found = await mrs.getMergeRequest({ ctx, input: { project: id, iid: merge_request_iid } });
  const diverged = options.include_diverged_commits_count ? await divergedCommitsCount(ctx, found.view) : undefined;
  return c.json(await single(c, found, { renderHtml: options.render_html === true, ...(diverged === undefined ? {} : { divergedCommitsCount: diverged }) }));
});

mergeRequestRoutes.put(base, path(SingleMergeRequestPath), params(UpdateMergeRequestInput), async (c) => {
  const { ctx } = c.var;
  const { id, merge_request_iid } = c.req.valid('param');
  await updateMergeRequest({ ctx, input: { project: id, iid: merge_request_iid, params: c.req.valid('query') } });
  return c.json(await single(c, await mrs.findMergeRequest(ctx, { project: id, iid: merge_request_iid }, { subscribed: true })));
});

mergeRequestRoutes.delete(base, path(SingleMergeRequestPath), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  await mrs.deleteMergeRequest({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.body(null, 204);
});

mergeRequestRoutes.get(`${base}/commits`, path(SingleMergeRequestPath), params(PageInput), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  const { commits, context } = await mergeRequestCommits({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.json((await paginateArray(c, c.req.valid('query'), commits)).map((commit) => toCommit(commit, context)));
});

mergeRequestRoutes.get(`${base}/changes`, path(SingleMergeRequestPath), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  const found = await mergeRequestChanges({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.json({ ...(await single(c, found)), changes: found.diffs, overflow: false });
});

mergeRequestRoutes.get(`${base}/versions`, path(SingleMergeRequestPath), params(PageInput), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  const versions = await mergeRequestVersions({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.json((await paginateArray(c, c.req.valid('query'), versions)).map(toMergeRequestVersion));
});

mergeRequestRoutes.get(`${base}/versions/:version_id`, path(VersionPath), async (c) => {
  const { id, merge_request_iid, version_id } = c.req.valid('param');
  const found = await mergeRequestVersion({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid, versionId: version_id } });
  return c.json({
    ...toMergeRequestVersion(found.version),
    commits: found.commits.map((commit) => toCommit(commit, found.context)),
    diffs: found.diffs,
  });
});

// ---- Merging ----

mergeRequestRoutes.put(`${base}/merge`, path(SingleMergeRequestPath), params(MergeInput), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  const found = await mergeMergeRequest({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid, params: c.req.valid('query') } });
  return c.json(await single(c, found));
});

mergeRequestRoutes.post(`${base}/cancel_merge_when_pipeline_succeeds`, path(SingleMergeRequestPath), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  const found = await cancelMergeWhenPipelineSucceeds({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.json(await single(c, found), 201);
});

mergeRequestRoutes.put(`${base}/rebase`, path(SingleMergeRequestPath), params(RebaseInput), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  await rebaseMergeRequest({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } });
  return c.json({ rebase_in_progress: true }, 202);
});

mergeRequestRoutes.get(`${base}/merge_ref`, path(SingleMergeRequestPath), async (c) => {
  const { id, merge_request_iid } = c.req.valid('param');
  return c.json({ commit_id: await mergeRefMergeRequest({ ctx: c.var.ctx, input: { project: id, iid: merge_request_iid } }) });
});

mergeRequestRoutes.get(`${base}/closes_issues`, path(SingleMergeRequestPath), params(PageInput), async (c) => {
  const { ctx } = c.var;
  const { id, merge_request_iid } = c.req.valid('param');
  const closing = await mergeRequestClosesIssues({ ctx, input: { project: id, iid: merge_request_iid } });
  return c.json((await paginateArray(c, c.req.valid('query'), closing)).map((v) => toIssue(v, ctx.config)));
});
