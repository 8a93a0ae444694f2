// A small GitLab Runner for the test suite: the HTTP protocol of gitlab-runner against the 13.6 API (register, request
// a job, PATCH the trace, upload/download artifacts, PUT the state), the shell executor reduced to `/bin/sh` in a
// sandbox directory per job. No git checkout: a job's sandbox starts empty, plus its dependencies' artifacts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { gzipSync, unzipSync, zipSync, type Zippable } from 'fflate';
import { TEST_PUBLIC_URL } from './app.ts';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface TestRunner {
  id: number;
  token: string;
  /** The X-GitLab-Last-Update of the last answer to /jobs/request, sent back as `last_update` like gitlab-runner. */
  lastUpdate?: string;
}

export interface JobVariable {
  key: string;
  value: string;
  public: boolean;
  masked?: boolean;
  file?: boolean;
}
export interface JobStep {
  name: string;
  script: string[];
  timeout: number;
  when: 'on_success' | 'on_failure' | 'always';
  allow_failure: boolean;
}
export interface JobPort {
  number: number;
  protocol?: string;
  name?: string;
}
export interface JobImage {
  name: string;
  entrypoint?: string[] | null;
  ports?: JobPort[];
}
export interface JobService extends JobImage {
  alias?: string | null;
  command?: string[] | null;
}
export interface JobArtifact {
  name: string | null;
  untracked: boolean | null;
  paths: string[] | null;
  exclude?: string[];
  when: 'on_success' | 'on_failure' | 'always' | null;
  expire_in: string | null;
  artifact_type: string;
  artifact_format: string;
}
export interface JobCache {
  key: string;
  untracked: boolean | null;
  paths: string[] | null;
  policy: string;
  when?: string | null;
}
export interface JobDependency {
  id: number;
  name: string;
  token: string;
  artifacts_file?: { filename: string; size: number };
}
/** The 201 answer of POST /jobs/request (Entities::JobRequest::Response): see /tmp/runner-protocol.md. */
export interface JobPayload {
  id: number;
  token: string;
  allow_git_fetch: boolean;
  job_info: { name: string; stage: string; project_id: number; project_name: string };
  git_info: { repo_url: string; ref: string; sha: string; before_sha: string; ref_type: 'branch' | 'tag'; refspecs: string[]; depth: number };
  runner_info: { timeout: number; runner_session_url: string | null };
  variables: JobVariable[];
  steps: JobStep[];
  image: JobImage | null;
  services: JobService[];
  artifacts: JobArtifact[] | null;
  cache: JobCache[];
  credentials: { type: string; url: string; username: string; password: string }[];
  dependencies: JobDependency[];
  features: { trace_sections: boolean; failure_reasons?: string[] };
}

export interface JobResult {
  /** `aborted`: the server answered 403 / Job-Status canceled|failed to a trace patch (no final PUT is sent). */
  status: 'success' | 'failed' | 'aborted';
  exitCode: number;
  failureReason?: string;
  trace: string;
}

export const RUNNER_INFO = {
  name: 'gitlab-runner',
  version: '13.6.0',
  revision: '8fa89735',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'shell',
  shell: 'sh',
  features: {
    variables: true,
    artifacts: true,
    upload_multiple_artifacts: true,
    upload_raw_artifacts: true,
    refspecs: true,
    masking: true,
    multi_build_steps: true,
    trace_reset: true,
    trace_checksum: true,
    trace_size: true,
    return_exit_code: true,
  },
};

const url = (path: string) => `${TEST_PUBLIC_URL}/api/v4${path}`;
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

async function fail(what: string, res: Response): Promise<never> {
  throw new Error(`${what}: ${res.status} ${await res.text()}`);
}

export async function registerRunner(
  fetch: Fetch,
  registrationToken: string,
  opts: {
    description?: string;
    tagList?: string[];
    runUntagged?: boolean;
    locked?: boolean;
    accessLevel?: 'not_protected' | 'ref_protected';
    maximumTimeout?: number;
  } = {},
): Promise<TestRunner> {
  const tags = opts.tagList ?? [];
  const body = {
    description: opts.description ?? 'test runner',
    ...(tags.length ? { tag_list: tags.join(',') } : {}),
    run_untagged: opts.runUntagged ?? tags.length === 0,
    locked: opts.locked ?? false,
    ...(opts.accessLevel ? { access_level: opts.accessLevel } : {}),
    ...(opts.maximumTimeout ? { maximum_timeout: opts.maximumTimeout } : {}),
    info: RUNNER_INFO,
    token: registrationToken,
  };
  const res = await fetch(url('/runners'), json('POST', body));
  if (res.status !== 201) return fail('register runner', res);
  const { id, token } = (await res.json()) as { id: number; token: string };
  return { id, token };
}

export async function unregisterRunner(fetch: Fetch, runner: TestRunner): Promise<number> {
  return (await fetch(url('/runners'), json('DELETE', { token: runner.token }))).status;
}

export async function verifyRunner(fetch: Fetch, runner: TestRunner): Promise<number> {
  return (await fetch(url('/runners/verify'), json('POST', { token: runner.token }))).status;
}

/** POST /jobs/request: the job, or null on 204 (no job). */
export async function requestJob(fetch: Fetch, runner: TestRunner): Promise<JobPayload | null> {
  const res = await fetch(
    url('/jobs/request'),
    json('POST', { info: RUNNER_INFO, token: runner.token, ...(runner.lastUpdate ? { last_update: runner.lastUpdate } : {}) }),
  );
  const lastUpdate = res.headers.get('x-gitlab-last-update');
  if (lastUpdate) runner.lastUpdate = lastUpdate;
  if (res.status === 204) return null;
  if (res.status !== 201) return fail('request job', res);
  return (await res.json()) as JobPayload;
}

/** CRC-32 (IEEE), as gitlab-runner's trace checksum `crc32:%08x`. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The job log: kept whole, sent by PATCH /jobs/:id/trace in chunks from the offset the server has acknowledged. */
class Trace {
  private data = new Uint8Array(0);
  private sent = 0;
  aborted = false;
  constructor(
    private fetch: Fetch,
    private job: JobPayload,
    private chunk: number,
  ) {}
  get bytes() {
    return this.data;
  }
  write(text: string) {
    const add = new TextEncoder().encode(text);
    const next = new Uint8Array(this.data.length + add.length);
    next.set(this.data);
    next.set(add, this.data.length);
    this.data = next;
  }
  async flush(): Promise<void> {
    for (let tries = 0; this.sent < this.data.length && !this.aborted; tries++) {
      if (tries > 1000) throw new Error('trace: too many patches');
      const body = this.data.slice(this.sent, Math.min(this.sent + this.chunk, this.data.length));
      const res = await this.fetch(url(`/jobs/${this.job.id}/trace`), {
        method: 'PATCH',
        headers: { 'JOB-TOKEN': this.job.token, 'Content-Range': `${this.sent}-${this.sent + body.length - 1}`, 'content-type': 'text/plain' },
        body,
      });
      await res.arrayBuffer();
      const jobStatus = res.headers.get('job-status');
      if (res.status === 403 || jobStatus === 'canceled' || jobStatus === 'failed') this.aborted = true;
      else if (res.status === 202) this.sent += body.length;
      else if (res.status === 416) this.sent = Number(/^0-(\d+)$/.exec(res.headers.get('range') ?? '')?.[1] ?? NaN);
      else return fail('patch trace', res);
      if (!Number.isInteger(this.sent) || this.sent > this.data.length) throw new Error(`trace: bad Range ${res.headers.get('range')}`);
    }
  }
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** One step's lines in one `/bin/sh` (cd/export carry over, as in gitlab-runner), stopping at the first failure. */
function runScript(lines: string[], cwd: string, env: Record<string, string>, timeoutSeconds: number): { exitCode: number; output: string; timedOut: boolean } {
  const script = ['exec 2>&1', 'set -e', ...lines.flatMap((line) => [`printf '%s\\n' ${quote(`$ ${line}`)}`, line])].join('\n');
  const res = spawnSync('/bin/sh', ['-c', script], { cwd, env, timeout: timeoutSeconds > 0 ? timeoutSeconds * 1000 : undefined, maxBuffer: 64 * 1024 * 1024 });
  const timedOut = res.error !== undefined || res.signal !== null;
  return { exitCode: res.status ?? 1, output: res.stdout?.toString('utf8') ?? '', timedOut };
}

/** Files under `root` matching gitlab-runner's artifact paths (doublestar globs; a matched directory counts whole). */
export function matchPaths(root: string, patterns: string[], exclude: string[] = []): string[] {
  const toRegex = (glob: string) => {
    const clean = glob.replace(/^\.\//, '').replace(/\/+$/, '');
    let re = '';
    for (let i = 0; i < clean.length; i++) {
      const ch = clean[i] ?? '';
      if (ch === '*' && clean[i + 1] === '*') {
        re += clean[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += clean[i + 2] === '/' ? 2 : 1;
      } else if (ch === '*') re += '[^/]*';
      else if (ch === '?') re += '[^/]';
      else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${re}(?:/.*)?$`);
  };
  const include = patterns.map(toRegex);
  const skip = exclude.map(toRegex);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const rel = relative(root, full).split(sep).join('/');
        if (include.some((r) => r.test(rel)) && !skip.some((r) => r.test(rel))) files.push(rel);
      }
    }
  };
  walk(root);
  return files;
}

async function downloadDependencies(fetch: Fetch, job: JobPayload, sandbox: string, trace: Trace): Promise<boolean> {
  for (const dep of job.dependencies) {
    if (!dep.artifacts_file?.filename) continue;
    trace.write(`Downloading artifacts for ${dep.name} (${dep.id})...\n`);
    const res = await fetch(url(`/jobs/${dep.id}/artifacts`), { headers: { 'JOB-TOKEN': dep.token } });
    if (res.status !== 200) {
      trace.write(`ERROR: Downloading artifacts from coordinator... ${res.status} ${await res.text()}\n`);
      return false;
    }
    for (const [name, content] of Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer())))) {
      const target = resolve(sandbox, name);
      if (!target.startsWith(sandbox + sep)) throw new Error(`artifact entry escapes the sandbox: ${name}`);
      if (name.endsWith('/')) mkdirSync(target, { recursive: true });
      else {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    }
  }
  return true;
}

async function uploadArtifacts(fetch: Fetch, job: JobPayload, sandbox: string, trace: Trace, success: boolean): Promise<boolean> {
  for (const artifact of job.artifacts ?? []) {
    const when = artifact.when ?? 'on_success';
    if (!(when === 'always' || (when === 'on_success') === success)) continue;
    const files = matchPaths(sandbox, artifact.paths ?? [], artifact.exclude);
    trace.write(`Uploading artifacts (${artifact.artifact_type})...\n`);
    if (files.length === 0) {
      trace.write('WARNING: no matching files\nERROR: No files to upload\n');
      continue;
    }
    let data: Uint8Array<ArrayBuffer>;
    let filename: string;
    if (artifact.artifact_format === 'zip') {
      const zippable: Zippable = {};
      for (const f of files) zippable[f] = new Uint8Array(readFileSync(join(sandbox, f)));
      data = zipSync(zippable);
      filename = 'artifacts.zip';
    } else {
      const raw = new Uint8Array(readFileSync(join(sandbox, files[0] ?? '')));
      data = artifact.artifact_format === 'gzip' ? gzipSync(raw) : raw;
      filename = artifact.name ?? files[0] ?? 'artifact';
    }
    const query = new URLSearchParams({ artifact_format: artifact.artifact_format, artifact_type: artifact.artifact_type });
    if (artifact.expire_in) query.set('expire_in', artifact.expire_in);
    const form = new FormData();
    form.append('file', new Blob([data]), filename);
    const res = await fetch(url(`/jobs/${job.id}/artifacts?${query}`), { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form });
    const text = await res.text();
    if (res.status !== 201) {
      trace.write(`ERROR: Uploading artifacts to coordinator... ${res.status} ${text}\n`);
      return false;
    }
    trace.write(`Uploading artifacts to coordinator... ok (${files.length} files)\n`);
  }
  return true;
}

async function updateJob(
  fetch: Fetch,
  job: JobPayload,
  trace: Trace,
  state: 'success' | 'failed',
  failureReason: string | undefined,
  exitCode: number,
): Promise<boolean> {
  const checksum = `crc32:${crc32(trace.bytes).toString(16).padStart(8, '0')}`;
  const body = {
    info: RUNNER_INFO,
    token: job.token,
    state,
    ...(failureReason ? { failure_reason: failureReason } : {}),
    checksum,
    output: { checksum, bytesize: trace.bytes.length },
    ...(exitCode ? { exit_code: exitCode } : {}),
  };
  for (let tries = 0; tries < 50; tries++) {
    const res = await fetch(url(`/jobs/${job.id}`), json('PUT', body));
    await res.arrayBuffer();
    if (res.status === 200) return true;
    if (res.status === 403 || res.status === 404) return false;
    if (res.status !== 202) return fail('update job', res);
    await new Promise((done) => setTimeout(done, 20)); // 202: accepted, trace not final yet; gitlab-runner retries
  }
  throw new Error('update job: still 202 after 50 tries');
}

/** Runs a job the way gitlab-runner's shell executor does, reporting over the API; returns how it ended. */
export async function runJob(fetch: Fetch, job: JobPayload, opts: { workDir: string; traceChunkBytes?: number }): Promise<JobResult> {
  const sandbox = resolve(opts.workDir, `job-${job.id}`);
  mkdirSync(sandbox, { recursive: true });
  const trace = new Trace(fetch, job, opts.traceChunkBytes ?? 16 * 1024);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const v of job.variables) {
    if (!v.file) env[v.key] = v.value;
    else {
      const path = join(`${sandbox}.tmp`, v.key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, v.value);
      env[v.key] = path;
    }
  }
  // gitlab-runner replaces the values of `masked` variables with [MASKED] in the log it sends.
  const secrets = job.variables.filter((v) => v.masked && v.value).map((v) => v.value);
  const mask = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[MASKED]'), text);
  Object.assign(env, { CI_PROJECT_DIR: sandbox, CI_BUILDS_DIR: resolve(opts.workDir), CI_SERVER: 'yes' });
  const end = (status: JobResult['status'], exitCode: number, failureReason?: string): JobResult => ({
    status,
    exitCode,
    failureReason,
    trace: new TextDecoder().decode(trace.bytes),
  });

  trace.write(`Running with ${RUNNER_INFO.name} ${RUNNER_INFO.version} (${RUNNER_INFO.revision})\n`);
  let exitCode = 0;
  let failureReason: string | undefined;
  if (!(await downloadDependencies(fetch, job, sandbox, trace))) {
    exitCode = 1;
    failureReason = 'script_failure';
  }
  await trace.flush();
  if (trace.aborted) return end('aborted', exitCode);
  for (const step of job.steps.filter((s) => s.name !== 'after_script')) {
    if (failureReason) break;
    const run = runScript(step.script, sandbox, env, step.timeout);
    trace.write(mask(run.output));
    if (run.exitCode !== 0 || run.timedOut) {
      exitCode = run.exitCode || 1;
      failureReason = run.timedOut ? 'job_execution_timeout' : 'script_failure';
      trace.write(run.timedOut ? `ERROR: Job failed: execution took longer than ${step.timeout} seconds\n` : `ERROR: Job failed: exit status ${exitCode}\n`);
    }
    await trace.flush();
    if (trace.aborted) return end('aborted', exitCode);
  }
  for (const step of job.steps.filter((s) => s.name === 'after_script')) {
    trace.write('Running after_script\n');
    const run = runScript(step.script, sandbox, { ...env, CI_JOB_STATUS: failureReason ? 'failed' : 'success' }, step.timeout);
    trace.write(mask(run.output));
    if (run.exitCode !== 0) trace.write(`WARNING: after_script failed: exit status ${run.exitCode}\n`);
  }
  if (!(await uploadArtifacts(fetch, job, sandbox, trace, !failureReason)) && !failureReason) {
    exitCode = 1;
    failureReason = 'script_failure';
  }
  trace.write(failureReason ? '' : 'Job succeeded\n');
  await trace.flush();
  if (trace.aborted) return end('aborted', exitCode);
  const state = failureReason ? 'failed' : 'success';
  if (!(await updateJob(fetch, job, trace, state, failureReason, exitCode))) return end('aborted', exitCode, failureReason);
  return end(state, exitCode, failureReason);
}

/** Requests and runs jobs until the server answers 204 (or `maxJobs` ran); returns the jobs in the order run. */
export async function runUntilIdle(
  fetch: Fetch,
  runner: TestRunner,
  opts: { workDir: string; maxJobs?: number; traceChunkBytes?: number; onJob?: (job: JobPayload, result: JobResult) => void },
): Promise<JobPayload[]> {
  const jobs: JobPayload[] = [];
  while (jobs.length < (opts.maxJobs ?? 50)) {
    const job = await requestJob(fetch, runner);
    if (!job) break;
    jobs.push(job);
    // Run first: `onJob?.(job, await runJob(...))` would skip the run itself when no callback is given.
    const result = await runJob(fetch, job, opts);
    opts.onJob?.(job, result);
  }
  return jobs;
}

/** True when `path` (relative to a job's sandbox) exists: for tests reading what a job left behind. */
export function sandboxHas(workDir: string, jobId: number, path: string): boolean {
  try {
    statSync(join(workDir, `job-${jobId}`, path));
    return true;
  } catch {
    return false;
  }
}
