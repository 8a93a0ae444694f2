// Job artifacts by ref and their keeping (GitLab 13.6 lib/api/job_artifacts.rb, the v4 names of v3's builds/...):
// the archive of the latest successful job of a name on a ref, one file of it, and keep (no expiry). The GETs need
// read_build only (anonymous on a public project with public builds); keeping needs update_build.
import { unzipSync } from 'fflate';
import * as q from '../../db/queries/jobs.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { badRequest, notFound, recordNotFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { artifactDownload } from '../runners/artifacts.ts';
import { getJob } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** authorize_download_artifacts!: read_build (404 unseen, 403 below it). */
export async function artifactsProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:read_build', projectFacts(project));
  return project;
}

/** Project#latest_successful_build_for_ref!'s archive: 404 `Not found` when there is none. */
export async function archiveForRef({ ctx, input }: Verb<{ project: ProjectView; ref: string; job: string }>) {
  const jobId = await q.latestSuccessfulJobWithArchive(ctx.db, input.project.project.id, input.ref, input.job);
  if (jobId === undefined) throw recordNotFound();
  return artifactDownload(ctx, jobId, 'archive');
}

/**
 * GET .../jobs/artifacts/:ref_name/raw/*artifact_path: one file of that archive, as Workhorse's artifacts entry
 * serves it. Gitlab::Ci::Build::Artifacts::Path#valid?: no NUL (400 otherwise); a path the archive lacks is 404.
 */
export async function artifactEntryForRef({ ctx, input }: Verb<{ project: ProjectView; ref: string; job: string; path: string }>) {
  if (input.path.includes('\0')) throw badRequest();
  const archive = await archiveForRef({ ctx, input });
  // The zip is read whole to find one entry (at most the 100 MB an artifact may be); reading its central directory
  // from the stored chunks would bound this by the entry instead.
  const content = new Uint8Array(await new Response(archive.body).arrayBuffer());
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(content, { filter: (f) => f.name === input.path });
  } catch {
    throw notFound();
  }
  const data = files[input.path];
  if (!data) throw notFound();
  return { data, fileName: input.path.slice(input.path.lastIndexOf('/') + 1) };
}

/**
 * POST .../jobs/:job_id/artifacts/keep (Ci::Build#keep_artifacts!): update_build (403), the job (404), and it must
 * have unexpired artifacts (404); then neither the job's nor its artifacts' expiry is kept.
 */
export async function keepArtifacts({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  requireUser(ctx);
  assertCan(ctx.actor, 'project:update_build', projectFacts(input.project));
  const job = await getJob({ ctx, input });
  const expired = job.build.artifactsExpireAt !== null && job.build.artifactsExpireAt.getTime() < Date.now();
  const files = await q.jobFiles(ctx.db, [job.build.id]);
  if (expired || !files.artifacts.some((a) => a.fileType === 'archive')) throw notFound();
  await ctx.batch((db) => q.keepArtifactsStatements(db, job.build.id));
  return getJob({ ctx, input });
}

/** Workhorse's artifacts entry: Go's mime.TypeByExtension (its built-in table), else application/octet-stream. */
const GO_MIME: Record<string, string> = {
  '.avif': 'image/avif',
  '.css': 'text/css; charset=utf-8',
  '.gif': 'image/gif',
  '.htm': 'text/html; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.mjs': 'text/javascript; charset=utf-8',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.webp': 'image/webp',
  '.xml': 'text/xml; charset=utf-8',
};

export function entryContentType(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 && GO_MIME[fileName.slice(dot).toLowerCase()]) || 'application/octet-stream';
}
