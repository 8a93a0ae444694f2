// Artifact uploads and downloads stream (DESIGN.md "Large bytes"): a 64 MB artifact goes in as a multipart body
// generated on the fly and comes back byte-exact through both download routes, while the process's memory stays far
// below the artifact's size; a malformed multipart body is Grape's 400; a refused or replaced upload keeps no bytes.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, appFetch, TEST_PUBLIC_URL, testDb, useOwnDatabase } from '../../helpers/app.ts';
import { registerRunner, requestJob, type Fetch } from '../../helpers/ci-runner.ts';
import { ciProject } from '../pipelines/support.ts';

// PGlite's files on disk: in memory they would be ArrayBuffers of this process, and the measure below would count
// the database's 64 MB as the request's.
const dataDir = mkdtempSync(join(tmpdir(), 'artifacts-db-'));
// Hooks after tests run last-registered first: the database closes before its files are removed.
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
useOwnDatabase({ dataDir });

const fetch: Fetch = (input, init) => appFetch(input, init);
const ONE_JOB = `build:
  script: [echo hi]
`;

async function runningJob() {
  const ctx = await ciProject(ONE_JOB);
  const token = (await api.get(`/projects/${ctx.project.id}`, { token: ctx.owner.token })).body.runners_token as string;
  const runner = await registerRunner(fetch, token);
  const job = (await requestJob(fetch, runner))!;
  return { ...ctx, job };
}

const BOUNDARY = '----artifact-boundary-7c1e0b5a9d2f4e8b';
const head = (name: string, filename?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n` +
  (filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n') +
  '\r\n';
const encode = (s: string) => new TextEncoder().encode(s);

/** `size` pseudo-random (incompressible) bytes in 64 KiB pieces, made as they are read; `digest()` once read. */
function generated(size: number, onPiece: (bytes: number) => void = () => undefined) {
  const hash = createHash('sha256');
  let x = 0x9e3779b9;
  let left = size;
  const pieces = async function* () {
    while (left > 0) {
      const n = Math.min(64 * 1024, left);
      const words = new Uint32Array(Math.ceil(n / 4));
      for (let i = 0; i < words.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        words[i] = x;
      }
      const piece = new Uint8Array(words.buffer, 0, n);
      hash.update(piece);
      left -= n;
      onPiece(n);
      yield piece;
    }
  };
  return { pieces, digest: () => hash.digest('hex') };
}

/** A multipart body streamed from its parts (no Content-Length: sent chunked, as gitlab-runner's pipe does). */
function multipartStream(parts: Array<Uint8Array | (() => AsyncGenerator<Uint8Array>)>): ReadableStream<Uint8Array> {
  const iterator = (async function* () {
    for (const p of parts) {
      if (p instanceof Uint8Array) yield p;
      else yield* p();
    }
  })();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}

const upload = (jobId: number, token: string, body: BodyInit, contentType = `multipart/form-data; boundary=${BOUNDARY}`, query = '') =>
  appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${jobId}/artifacts${query}`, {
    method: 'POST',
    headers: { 'JOB-TOKEN': token, 'Content-Type': contentType },
    body,
    duplex: 'half',
  } as RequestInit);

async function sha256Of(res: Response, onPiece: (bytes: number) => void = () => undefined) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
    onPiece(piece.length);
    hash.update(piece);
    size += piece.length;
  }
  return { size, sha256: hash.digest('hex') };
}

const storedFiles = async () => {
  const result = (await testDb().db.execute(sql`SELECT count(*)::int AS n FROM stored_files`)) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]!.n);
};

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** What JavaScript keeps alive (heap plus ArrayBuffers, where request bodies and chunks live), garbage collected. */
const live = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Live memory, sampled while bytes flow (every 4 MiB the server takes or gives): in-process, the request runs on
 * promises alone, so a timer would not fire until it is over. Each sample follows a full collection: garbage is not
 * memory the request holds.
 */
function memoryProbe() {
  const base = live();
  let peak = base;
  let since = 0;
  return {
    /** Counts bytes that went through; samples every 4 MiB (a full collection costs tens of milliseconds). */
    passed(bytes: number) {
      since += bytes;
      if (since < 4 * 2 ** 20) return;
      since = 0;
      peak = Math.max(peak, live());
    },
    peakMb: () => (Math.max(peak, live()) - base) / 2 ** 20,
  };
}

describe('artifacts stream through chunked storage', () => {
  it('a 64 MB artifact goes in and comes back byte-exact, the live memory staying far below its size', async () => {
    const { owner, project, job } = await runningJob();
    const size = 64 * 1024 * 1024;
    const files = await storedFiles();

    const upload_ = memoryProbe();
    const data = generated(size, upload_.passed);
    const body = multipartStream([encode(head('file', 'artifacts.zip')), data.pieces, encode(`\r\n--${BOUNDARY}--\r\n`)]);
    expect((await upload(job.id, job.token, body)).status).toBe(201);
    const expected = { size, sha256: data.digest() };
    expect(await storedFiles()).toBe(files + 1);

    const runnerDownload = memoryProbe();
    const viaRunner = await appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/artifacts`, { headers: { 'JOB-TOKEN': job.token } });
    expect([viaRunner.status, viaRunner.headers.get('content-length')]).toEqual([200, String(size)]);
    expect(await sha256Of(viaRunner, runnerDownload.passed)).toEqual(expected);

    const apiDownload = memoryProbe();
    const viaApi = await appFetch(`${TEST_PUBLIC_URL}/api/v4/projects/${project.id}/jobs/${job.id}/artifacts`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect([viaApi.status, viaApi.headers.get('content-length')]).toEqual([200, String(size)]);
    expect(await sha256Of(viaApi, apiDownload.passed)).toEqual(expected);

    // Holding the artifact would be 64 MB and more (formData() and one bytea held several copies); the chunks in
    // flight are a few MB (measured: 7-15 MB here, the test's own buffers included).
    for (const peak of [upload_.peakMb(), runnerDownload.peakMb(), apiDownload.peakMb()]) expect(peak).toBeLessThan(40);
  }, 90_000);
});

const GRAPE_MULTIPART_400 = {
  error:
    "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying multipart/form-data as content-type, you must pass valid multipart/form-data in the request's 'body' ",
};

describe('artifact uploads: framing, tokens and what is kept', () => {
  const filePart = (bytes: string, name = 'file', filename = 'artifacts.zip') => `${head(name, filename)}${bytes}\r\n`;
  const end = `--${BOUNDARY}--\r\n`;

  it('a malformed multipart body is 400 with Grape message, and stores nothing', async () => {
    const { job } = await runningJob();
    const files = await storedFiles();
    const cases: Array<[string, string]> = [
      [filePart('abc'), `multipart/form-data; boundary=${BOUNDARY}`], // no closing delimiter
      [`${filePart('abc')}${end}`, 'multipart/form-data'], // no boundary
      [`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nabc\r\n${end}`, `multipart/form-data; boundary=${BOUNDARY}`], // no Content-Disposition
      ['not multipart at all', `multipart/form-data; boundary=${BOUNDARY}`],
      [`${head('file', 'artifacts.zip')}abc`, `multipart/form-data; boundary=${BOUNDARY}`], // cut off inside the file
    ];
    for (const [body, type] of cases) {
      const res = await upload(job.id, job.token, body, type);
      expect([res.status, await res.json()]).toEqual([400, GRAPE_MULTIPART_400]);
    }
    expect(await storedFiles()).toBe(files);
  });

  it('the token may come as a field before the file; a wrong one is 403 before a byte is stored; no file part is 400', async () => {
    const { job } = await runningJob();
    const files = await storedFiles();
    const post = (body: string, headers: Record<string, string> = {}, query = '') =>
      appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/artifacts${query}`, {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
        body,
      });
    const wrong = await post(`${head('token')}nope\r\n${filePart('zip bytes')}${end}`);
    expect([wrong.status, await wrong.json()]).toEqual([403, { message: '403 Forbidden' }]);
    expect(await storedFiles()).toBe(files);
    const missing = await post(`${head('token')}${job.token}\r\n${filePart('zip bytes', 'other')}${end}`);
    expect([missing.status, await missing.json()]).toEqual([400, { error: 'file is missing' }]);
    const badType = await post(`${head('token')}${job.token}\r\n${filePart('zip bytes')}${head('artifact_format')}tar\r\n${end}`);
    expect([badType.status, await badType.json()]).toEqual([400, { error: 'artifact_format does not have a valid value' }]);
    expect(await storedFiles()).toBe(files);
    const ok = await post(`${head('token')}${job.token}\r\n${filePart('zip bytes')}${end}`, {}, '?expire_in=1%20week');
    expect(ok.status).toBe(201);
    expect(await storedFiles()).toBe(files + 1);
    const back = await appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/artifacts`, { headers: { 'JOB-TOKEN': job.token } });
    expect([back.status, back.headers.get('content-disposition'), await back.text()]).toEqual([200, 'attachment; filename="artifacts.zip"', 'zip bytes']);
  });

  it('the same bytes again are accepted, other bytes refused, and erasing the job deletes its stored bytes', async () => {
    const { owner, project, job } = await runningJob();
    const files = await storedFiles();
    const send = (bytes: string) => upload(job.id, job.token, `${filePart(bytes)}${end}`);
    expect((await send('first')).status).toBe(201);
    expect((await send('first')).status).toBe(201);
    const other = await send('second');
    expect([other.status, await other.json()]).toEqual([400, { message: 'another artifact of the same type already exists' }]);
    expect(await storedFiles()).toBe(files + 1);
    const declared = await appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/artifacts`, {
      method: 'POST',
      headers: { 'JOB-TOKEN': job.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': String(200 * 1024 * 1024) },
      body: `${filePart('x')}${end}`,
    });
    expect([declared.status, await declared.json()]).toEqual([413, { message: 'file size has reached maximum size limit' }]);

    expect(
      (
        await appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: job.token, state: 'success' }),
        })
      ).status,
    ).toBe(200);
    expect((await api.post(`/projects/${project.id}/jobs/${job.id}/erase`, { token: owner.token })).status).toBe(201);
    expect(await storedFiles()).toBe(files);
    expect((await api.get(`/projects/${project.id}/jobs/${job.id}/artifacts`, { token: owner.token })).status).toBe(404);
  });
});
