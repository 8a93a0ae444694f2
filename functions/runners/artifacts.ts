// Job artifacts as the runner moves them (GitLab 13.6 lib/api/ci/runner.rb `POST/GET /jobs/:id/artifacts`): the
// upload's bytes stream into the chunked store (lib/stored-files.ts) as they arrive, and the download streams them
// back, so neither costs more memory than a chunk whatever the artifact's size.
import { readArtifact } from '../jobs/lookups.ts';
import * as q from '../../db/queries/runners.ts';
import type { RequestContext } from '../lib/context.ts';
import { constantTimeEqual, sha256Hex } from '../lib/crypto.ts';
import { forbidden, invalidMessage, notFound, tooLarge } from '../lib/errors.ts';
import { discardStoredFile, FileTooLarge, readStoredFile, writeStoredFile, type StoredFile } from '../lib/stored-files.ts';
import { parseDuration } from '../ci/config/duration.ts';
import { authenticateJob } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GitLab's max_artifacts_size default: 100 MB. */
export const MAX_ARTIFACTS_BYTES = 100 * 1024 * 1024;
/** The message of a file past max_artifacts_size (413). */
export const TOO_LARGE_MESSAGE = 'file size has reached maximum size limit';

/** authorize_artifacts: the job's own token, while the job runs. Checked before a byte of the file is stored. */
export const artifactUploadJob = ({ ctx, input }: Verb<{ jobId: number; token: string | undefined }>) =>
  authenticateJob(ctx, input.jobId, input.token, { running: true });

/** Stores the uploaded file's bytes as they arrive; 413 past max_artifacts_size (and nothing kept). */
export async function storeArtifactFile({ ctx, input }: Verb<{ pieces: AsyncIterable<Uint8Array> }>): Promise<StoredFile> {
  try {
    return await writeStoredFile(ctx.db, input.pieces, { maxBytes: MAX_ARTIFACTS_BYTES });
  } catch (error) {
    if (error instanceof FileTooLarge) throw tooLarge(TOO_LARGE_MESSAGE);
    throw error;
  }
}

/** A stored file no artifact took (the rest of the request failed). */
export const discardArtifactFile = ({ ctx, input }: Verb<{ file: StoredFile }>) => discardStoredFile(ctx.db, input.file.id);

/**
 * The job's artifact of `artifactType` becomes the stored file. A second upload of the same bytes is accepted and
 * changes nothing; other bytes are 400 (one artifact per type). A file that is not taken is deleted.
 */
export async function saveArtifacts({
  ctx,
  input,
}: Verb<{
  job: { id: number; projectId: number };
  file: StoredFile;
  fileName: string;
  artifactType: string;
  artifactFormat: 'zip' | 'gzip' | 'raw';
  expireIn: string | undefined;
}>) {
  const seconds = input.expireIn === undefined || input.expireIn === 'never' ? null : parseDuration(input.expireIn);
  let outcome: Awaited<ReturnType<typeof q.insertArtifact>> | undefined;
  try {
    outcome = await q.insertArtifact(ctx.db, {
      projectId: input.job.projectId,
      jobId: input.job.id,
      fileType: input.artifactType,
      fileFormat: input.artifactFormat,
      fileName: input.fileName,
      file: input.file,
      expireAt: seconds === null ? null : new Date(Date.now() + seconds * 1000),
    });
  } finally {
    if (outcome !== 'stored') await discardStoredFile(ctx.db, input.file.id);
  }
  if (outcome === 'exists') throw invalidMessage('another artifact of the same type already exists');
}

/** An archive's name, size and bytes (a stream read one chunk at a time). */
export async function artifactDownload(ctx: RequestContext, jobId: number, fileType: string) {
  const archive = await readArtifact(ctx.db, jobId, fileType);
  if (!archive) throw notFound();
  return { fileName: archive.fileName, size: archive.size, body: readStoredFile(ctx.db, { id: archive.fileId, size: archive.size }) };
}

/**
 * GET /jobs/:id/artifacts: the job's archive for its own token, or for the token of a running job of the same
 * pipeline (the dependency entries of a payload carry the downloading job's token; see job-payload.ts).
 */
export async function downloadArtifacts({ ctx, input }: Verb<{ jobId: number; token: string | undefined }>) {
  const job = await q.findJobAuth(ctx.db, input.jobId);
  if (!job) throw notFound();
  if (!input.token) throw forbidden();
  const digest = await sha256Hex(input.token);
  const own = job.tokenDigest !== null && (await constantTimeEqual(digest, job.tokenDigest));
  if (!own && !(await q.runningJobWithDigest(ctx.db, job.pipelineId, digest))) throw forbidden();
  if (job.erased) throw forbidden('Job has been erased!');
  return artifactDownload(ctx, job.id, 'archive');
}
