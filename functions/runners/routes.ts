// The runner API (GitLab 13.6 lib/api/ci/runner.rb) that gitlab-runner speaks: register, unregister and verify a
// runner; request a job; report its state; append its trace; upload and download its artifacts. Runner and job
// tokens authenticate here (app.ts keeps these paths out of authenticate_non_get!).
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { clientIp } from '../lib/rate-limit.ts';
import { isDomainError, tooLarge } from '../lib/errors.ts';
import { BodyTooLarge, MalformedMultipart, MultipartReader, multipartBoundary } from '../lib/multipart.ts';
import type { StoredFile } from '../lib/stored-files.ts';
import { invalidMessageBody, parseFields, parseParams } from '../lib/validate.ts';
import * as artifacts from './artifacts.ts';
import { ArtifactUploadInput, JobRequestInput, RegisterInput, RunnerTokenInput, UpdateJobInput } from './schemas.ts';
import * as runners from './service.ts';

export const runnerRoutes = new Hono<AppEnv>();

/** `:id` of /jobs/:id: digits (the route would not match otherwise). */
const jobId = (c: Context<AppEnv>) => Number(c.req.param('id'));
/** The job token: the `JOB-TOKEN` header or the `token` parameter (job_token_valid?). */
const jobToken = (c: Context<AppEnv>, param?: unknown) => c.req.header('job-token') ?? (typeof param === 'string' ? param : undefined) ?? c.req.query('token');

/** job_forbidden!: 403 with the job's status in `Job-Status`. */
async function withJobStatus(c: Context<AppEnv>, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof runners.JobForbidden) return c.json({ message: `403 Forbidden - ${e.reason}` }, 403, { 'Job-Status': e.jobStatus });
    throw e;
  }
}

runnerRoutes.post('/runners', async (c) => {
  const input = await parseParams(c, RegisterInput());
  const runner = await runners.registerRunner({
    ctx: c.var.ctx,
    input: {
      token: input.token,
      description: input.description,
      info: input.info,
      active: input.active,
      locked: input.locked,
      runUntagged: input.run_untagged,
      tagList: input.tag_list,
      accessLevel: input.access_level,
      maximumTimeout: input.maximum_timeout,
      ipAddress: clientIp(c),
    },
  });
  // The runner's authentication token: shown here only.
  return c.json(runner, 201, NO_STORE);
});

runnerRoutes.delete('/runners', async (c) => {
  await runners.unregisterRunner({ ctx: c.var.ctx, input: await parseParams(c, RunnerTokenInput()) });
  return c.body(null, 204);
});

runnerRoutes.post('/runners/verify', async (c) => {
  await runners.verifyRunner({ ctx: c.var.ctx, input: await parseParams(c, RunnerTokenInput()) });
  return c.body(null, 200);
});

runnerRoutes.post('/jobs/request', async (c) => {
  const input = await parseParams(c, JobRequestInput());
  const outcome = await runners.requestJob({ ctx: c.var.ctx, input: { token: input.token, info: input.info, ipAddress: clientIp(c) } });
  if (outcome.kind === 'none') return c.body(null, 204, { 'X-GitLab-Last-Update': outcome.lastUpdate });
  // The job's token (and the variables' secrets) travel in the payload.
  return c.json(outcome.payload, 201, NO_STORE);
});

runnerRoutes.put('/jobs/:id{[0-9]+}', (c) =>
  withJobStatus(c, async () => {
    const input = await parseParams(c, UpdateJobInput());
    await runners.updateJob({
      ctx: c.var.ctx,
      input: { jobId: jobId(c), token: input.token, state: input.state, failureReason: input.failure_reason, exitCode: input.exit_code },
    });
    return c.text('200', 200);
  }),
);

runnerRoutes.patch('/jobs/:id{[0-9]+}/trace', (c) =>
  withJobStatus(c, async () => {
    const range = c.req.header('content-range');
    const token = jobToken(c);
    const start = range === undefined ? NaN : Number(/^(\d+)-/.exec(range)?.[1] ?? NaN);
    if (range === undefined || !Number.isSafeInteger(start)) {
      // The job is authenticated first (GitLab's order), then the missing header is a 400.
      await runners.appendTrace({ ctx: c.var.ctx, input: { jobId: jobId(c), token, start: -1, data: new Uint8Array() } }).catch((e: unknown) => {
        if (!isDomainError(e, 'forbidden') && !isDomainError(e, 'not_found') && !(e instanceof runners.JobForbidden)) return;
        throw e;
      });
      return c.json({ message: '400 Missing header Content-Range' }, 400);
    }
    const data = new Uint8Array(await c.req.arrayBuffer());
    const result = await runners.appendTrace({ ctx: c.var.ctx, input: { jobId: jobId(c), token, start, data } });
    if (result.mismatch) return c.json({ message: '416 Range Not Satisfiable' }, 416, { Range: `0-${result.size}` });
    return c.body(null, 202, { 'Job-Status': result.status, Range: `0-${result.size}`, 'X-GitLab-Trace-Update-Interval': '60' });
  }),
);

/**
 * The form fields of an upload (token, expire_in...) together: parameters are short, and they are held until the
 * body ends, so more than the usual API body (1 MiB) is a malformed body.
 */
const MAX_FIELDS_BYTES = 1024 * 1024;
/** The whole request: the file at its maximum, plus room for the fields and the multipart framing. */
const MAX_ARTIFACT_REQUEST = artifacts.MAX_ARTIFACTS_BYTES + 1024 * 1024;

/**
 * The upload is read as it arrives (lib/multipart.ts): the fields before the `file` part, then the job is
 * authenticated (the token from JOB-TOKEN, a `token` field or the query) before its bytes go into the chunked store;
 * the parameters are validated again with every field once the body has ended, and only then does the artifact
 * take the file. A body that is not multipart, or has no file part, is `file is missing`.
 */
runnerRoutes.post('/jobs/:id{[0-9]+}/artifacts', (c) =>
  withJobStatus(c, async () => {
    const ctx = c.var.ctx;
    const fields: Array<[string, string]> = [];
    let fieldBytes = 0;
    let upload: { job: { id: number; projectId: number }; file: StoredFile; fileName: string } | undefined;
    if (Number(c.req.header('content-length') ?? 0) > MAX_ARTIFACT_REQUEST) throw tooLarge(artifacts.TOO_LARGE_MESSAGE);
    try {
      const boundary = multipartBoundary(c.req.header('content-type'));
      if (boundary !== null && c.req.raw.body) {
        const reader = new MultipartReader(c.req.raw.body, boundary, MAX_ARTIFACT_REQUEST);
        for (let part = await reader.next(); part; part = await reader.next()) {
          if (part.filename === undefined) {
            const value = await reader.text(MAX_FIELDS_BYTES - fieldBytes);
            fieldBytes += value.length;
            fields.push([part.name, value]);
          } else if (part.name === 'file' && !upload) {
            await parseFields(c, ArtifactUploadInput(), fields); // Grape's validation runs before the endpoint
            const token = jobToken(c, fields.findLast(([k]) => k === 'token')?.[1]);
            const job = await artifacts.artifactUploadJob({ ctx, input: { jobId: jobId(c), token } });
            const file = await artifacts.storeArtifactFile({ ctx, input: { pieces: reader.body() } });
            upload = { job, file, fileName: part.filename || 'artifacts.zip' };
          }
        }
      }
      const params = await parseFields(c, ArtifactUploadInput(), fields);
      if (!upload) return c.json({ error: 'file is missing' }, 400);
      const { job, file, fileName } = upload;
      upload = undefined; // saveArtifacts owns the file now
      await artifacts.saveArtifacts({
        ctx,
        input: { job, file, fileName, artifactType: params.artifact_type, artifactFormat: params.artifact_format, expireIn: params.expire_in },
      });
      return c.body(null, 201);
    } catch (error) {
      if (upload) await artifacts.discardArtifactFile({ ctx, input: { file: upload.file } });
      if (error instanceof MalformedMultipart) throw invalidMessageBody('multipart/form-data');
      if (error instanceof BodyTooLarge) throw tooLarge(artifacts.TOO_LARGE_MESSAGE);
      throw error;
    }
  }),
);

runnerRoutes.get('/jobs/:id{[0-9]+}/artifacts', async (c) => {
  const archive = await artifacts.downloadArtifacts({ ctx: c.var.ctx, input: { jobId: jobId(c), token: jobToken(c) } });
  return c.body(archive.body, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(archive.size),
    'Content-Disposition': `attachment; filename="${archive.fileName}"`,
  });
});
