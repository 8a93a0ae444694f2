// The read half of the repository REST API (GitLab 13.6: branches.rb, commits.rb, repositories.rb, files.rb,
// tags.rb). Names in the path (branch, sha, file_path) arrive URL-encoded (`%2F` for a slash) and Hono decodes them.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { paramErrors } from '../lib/errors.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginateArray } from '../lib/pagination.ts';
import { params, path, schema } from '../lib/validate.ts';
import { fileHeaders, toBlob, toBranch, toCommit, toCommitDetail, toCommitWithStats, toFile, toTag, toTreeObject } from './entities.ts';
import { GetCommitInput, GetFileInput, ListBranchesInput, ListCommitsInput, ListTagsInput, TreeInput } from './schemas.ts';
import { getCommit, listCommits } from './reads/commits.ts';
import { getBlob, getFile, listTree } from './reads/files.ts';
import { getBranch, listBranches, listTags } from './reads/refs.ts';
import { CommitDiffInput, CompareInput, MergeBaseInput } from './diffs/schemas.ts';
import { commitDiff, commitStats, compareRefs, findMergeBase } from './reads/diffs.ts';

export const repositoryReadRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const BranchPath = schema(() => z.object({ id: projectRef(), branch: z.string() }));
const ShaPath = schema(() => z.object({ id: projectRef(), sha: z.string() }));
const FilePath = schema(() => z.object({ id: projectRef(), file_path: z.string() }));
const RawFileInput = schema(() => z.object({ ref: z.optional(GetFileInput().shape.ref) }));

const base = '/projects/:id/repository';

repositoryReadRoutes.get(`${base}/branches`, path(ProjectPath), params(ListBranchesInput), async (c) => {
  const input = c.req.valid('query');
  const found = await listBranches({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  const page = await paginateArray(c, input, found.branches);
  return c.json(page.map((b) => toBranch(b, found.context)));
});

repositoryReadRoutes.get(`${base}/branches/:branch`, path(BranchPath), async (c) => {
  const { id, branch } = c.req.valid('param');
  const found = await getBranch({ ctx: c.var.ctx, input: { project: id, branch } });
  return c.json(toBranch(found.branch, found.context));
});

repositoryReadRoutes.get(`${base}/tags`, path(ProjectPath), params(ListTagsInput), async (c) => {
  const input = c.req.valid('query');
  const found = await listTags({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  const page = await paginateArray(c, input, found.tags);
  return c.json(page.map((t) => toTag(t, found.context)));
});

repositoryReadRoutes.get(`${base}/commits`, path(ProjectPath), params(ListCommitsInput), async (c) => {
  const input = c.req.valid('query');
  const list = await listCommits({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  // The page's statement counts the total too; only a page past the end asks for it again.
  let total: number | undefined;
  const page = await paginate(
    c,
    pageRequest(input),
    async (limit, offset) => {
      const p = await list.fetch(limit, offset);
      total = p.total;
      return p.commits;
    },
    async () => total ?? (await list.fetch(1, 0)).total ?? 0,
  );
  if (!input.with_stats) return c.json(page.map((commit) => toCommit(commit, list.context)));
  // Entities::CommitWithStats: the page's stats in one more statement (reads/diffs.ts).
  const stats = await commitStats(c.var.ctx.db, list.context.projectId, page);
  return c.json(page.map((commit, i) => toCommitWithStats(commit, stats[i]!, list.context)));
});

repositoryReadRoutes.get(`${base}/commits/:sha`, path(ShaPath), params(GetCommitInput), async (c) => {
  const { id, sha } = c.req.valid('param');
  const found = await getCommit({ ctx: c.var.ctx, input: { project: id, sha } });
  const [stats] = c.req.valid('query').stats ? await commitStats(c.var.ctx.db, found.context.projectId, [found.commit]) : [null];
  return c.json(toCommitDetail(found.commit, found.context, stats ?? null));
});

// Kaminari.paginate_array over every diff of the commit.
repositoryReadRoutes.get(`${base}/commits/:sha/diff`, path(ShaPath), params(CommitDiffInput), async (c) => {
  const { id, sha } = c.req.valid('param');
  const found = await commitDiff({ ctx: c.var.ctx, input: { project: id, sha } });
  return c.json(await paginateArray(c, c.req.valid('query'), found.diffs));
});

/** Entities::Compare: `commit` is the newest of `commits` (oldest first); compare_timeout is false (no limits). */
repositoryReadRoutes.get(`${base}/compare`, path(ProjectPath), params(CompareInput), async (c) => {
  const { from, to, straight, from_project_id: fromProjectId } = c.req.valid('query');
  const { compare, context } = await compareRefs({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, from, to, straight, fromProjectId } });
  const commits = compare.commits.map((commit) => toCommit(commit, context));
  return c.json({ commit: commits.at(-1) ?? null, commits, diffs: compare.diffs, compare_timeout: false, compare_same_ref: compare.same });
});

repositoryReadRoutes.get(`${base}/merge_base`, path(ProjectPath), params(MergeBaseInput), async (c) => {
  const found = await findMergeBase({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, refs: c.req.valid('query').refs } });
  return c.json(toCommit(found.commit, found.context));
});

repositoryReadRoutes.get(`${base}/tree`, path(ProjectPath), params(TreeInput), async (c) => {
  const input = c.req.valid('query');
  const list = await listTree({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, params: input } });
  let total = 0;
  const page = await paginate(
    c,
    pageRequest(input),
    async (limit, offset) => {
      const p = await list.fetch(limit, offset);
      total = p.total;
      return p.entries;
    },
    async () => total,
  );
  return c.json(page.map(toTreeObject));
});

/**
 * send_git_blob: text/plain, inline with the blob's name (ActionDispatch's ContentDisposition: an ASCII fallback
 * and the UTF-8 name; none for a blob read by id, which has no name). GitLab's Workhorse may sniff another type for
 * some content (images); this always answers text/plain.
 */
function sendBlob(c: Context<AppEnv>, name: string | null, content: Uint8Array, extra: Record<string, string> = {}) {
  const ascii = name?.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const headers: Record<string, string> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Disposition': name === null ? 'inline' : `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    ...extra,
  };
  return c.body(content as Uint8Array<ArrayBuffer>, 200, headers);
}

/** Helpers#no_cache_headers. */
const NO_CACHE = { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache', Expires: 'Fri, 01 Jan 1990 00:00:00 GMT' };

repositoryReadRoutes.get(`${base}/blobs/:sha`, path(ShaPath), async (c) => {
  const { id, sha } = c.req.valid('param');
  const { blob } = await getBlob({ ctx: c.var.ctx, input: { project: id, sha } });
  return c.json(toBlob(blob));
});

repositoryReadRoutes.get(`${base}/blobs/:sha/raw`, path(ShaPath), async (c) => {
  const { id, sha } = c.req.valid('param');
  const { blob } = await getBlob({ ctx: c.var.ctx, input: { project: id, sha } });
  return sendBlob(c, null, blob.content, NO_CACHE);
});

/**
 * The `file_path: true` validator (Gitlab::Utils.check_path_traversal!): a `..` segment is 400 `file_path should
 * be a valid file path`.
 */
function filePath(raw: string): string {
  if (raw.split('/').includes('..')) throw paramErrors(['file_path should be a valid file path']);
  return raw;
}

// GET and HEAD (Hono answers HEAD with the GET route's headers and no body): `ref` required.
repositoryReadRoutes.get(`${base}/files/:file_path`, path(FilePath), params(GetFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const file = await getFile({ ctx: c.var.ctx, input: { project: id, path: filePath(file_path), ref: c.req.valid('query').ref } });
  for (const [name, value] of Object.entries(fileHeaders(file))) c.header(name, value);
  return c.json(toFile(file));
});

// `ref` optional here (13.6): the default branch when left out.
repositoryReadRoutes.get(`${base}/files/:file_path/raw`, path(FilePath), params(RawFileInput), async (c) => {
  const { id, file_path } = c.req.valid('param');
  const file = await getFile({ ctx: c.var.ctx, input: { project: id, path: filePath(file_path), ref: c.req.valid('query').ref } });
  return sendBlob(c, file.path.slice(file.path.lastIndexOf('/') + 1), file.content, { ...NO_CACHE, ...fileHeaders(file) });
});
