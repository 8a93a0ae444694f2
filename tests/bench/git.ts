// `npm run bench:git`: git's HTTP transport against `git http-backend` serving the same repository from disk on
// this machine (behind a small CGI server in this process), with the real `git` as the client. The repository is
// generated with `git fast-import`: 5,000 commits, 10,000 files (BENCH_GIT_COMMITS shrinks it); the first commit
// adds every file, each later one edits one or two. It is pushed to the app once (timed too), then:
//   - git clone (full), git clone --depth 1, git clone --filter=blob:none (with their checkouts);
//   - a push of 10 new commits, then an incremental `git fetch` of them in a clone made before;
// each timed against http-backend, with the bytes each server sent and the ratio. The full clone is timed twice:
// before the project is repacked (every object planned and compressed, no deltas) and after (the stored pack with
// deltas streamed), the repack itself timed between them; the push does not repack on its own here (GIT_GC_AUTO=0)
// so the first clone is cold. The app runs in this process on
// the embedded database (as `npm start`), so the CPU printed for it covers the app AND the database: an upper bound
// of what the Worker would spend on the request. Budgets (issue 31): full clone within 3x of http-backend's wall
// time, incremental fetch within 2x, a push of 10 commits under 1 s. Prints figures; `--check` exits 1 when a
// budget is missed.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { pgliteProvider } from '../../db/client.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { createApp } from '../../functions/app.ts';
import { repack } from '../../functions/repositories/transport/repack.ts';
import type { Env } from '../../functions/env.ts';
import { MemoryResponseCache } from '../../functions/lib/response-cache.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';
import { BENCH_COMMITS, BENCH_FILES, generateRepository, git, GIT_ENV } from './git-repo.ts';

const COMMITS = BENCH_COMMITS;
const FILES = BENCH_FILES;
const CHECK = process.argv.includes('--check');
const work = mkdtempSync(join(tmpdir(), 'bench-git-'));

/** Runs git without blocking the event loop (the app answering it lives in this process); resolves to wall ms. */
function gitAsync(cwd: string, args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: GIT_ENV });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`git ${args.join(' ')}: ${err}`))));
  });
}

// ---- The repository, on disk ----
const source = join(work, 'source.git');
generateRepository(work, source, COMMITS, FILES);

// ---- git http-backend behind a CGI server; bytes counted ----
let backendBytes = 0;
function cgi(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url!, 'http://x');
  const child = spawn('/usr/lib/git-core/git-http-backend', [], {
    env: {
      ...GIT_ENV,
      GIT_PROJECT_ROOT: work,
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'bench',
      REQUEST_METHOD: req.method!,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
    },
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      backendBytes += chunk.length;
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString().split('\r\n')) {
      const [name, ...rest] = line.split(':');
      const value = rest.join(':').trim();
      if (name!.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else res.setHeader(name!, value);
    }
    res.writeHead(status);
    const body = head.subarray(end + 4);
    backendBytes += body.length;
    res.write(body);
  });
  child.on('close', () => res.end());
}
const backend = createServer(cgi);
await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
const backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/source.git`;

// ---- The app, as `npm start` runs it; bytes counted ----
const client = await openEmbedded();
const provider = pgliteProvider(client);
const cache = new MemoryResponseCache();
const app = createApp({ database: () => provider, cache: () => cache });
const root = (await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction))!;
let appBytes = 0;
const env: Env = { PUBLIC_URL: 'http://127.0.0.1', INSTANCE_TIER: 'free', MAX_PUSH_SIZE: String(1 << 30), GIT_GC_AUTO: '0' };
const counted = async (req: Request) => {
  const res = await app.fetch(req, env, { waitUntil: () => undefined, passThroughOnException() {}, props: {} } as never);
  if (!res.body) return res;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      appBytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(counter), res);
};
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: counted, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
const appPort = (server.address() as AddressInfo).port;
env.PUBLIC_URL = `http://127.0.0.1:${appPort}`;
const created = await app.fetch(
  new Request(`${env.PUBLIC_URL}/api/v4/projects`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': root.token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-git' }),
  }),
  env,
);
const project = (await created.json()) as { id: number; path_with_namespace: string };
const appUrl = `http://root:${root.token}@127.0.0.1:${appPort}/${project.path_with_namespace}.git`;

interface Result {
  wall: number;
  bytes: number;
  cpu?: number;
}
async function timed(run: () => Promise<number>, counter: 'app' | 'backend'): Promise<Result> {
  const bytesBefore = counter === 'app' ? appBytes : backendBytes;
  const cpuBefore = process.cpuUsage();
  const wall = await run();
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, bytes: (counter === 'app' ? appBytes : backendBytes) - bytesBefore, ...(counter === 'app' && { cpu: (cpu.user + cpu.system) / 1000 }) };
}

console.error('bench:git: repository generated; pushing it to the app');
const initial = await timed(() => gitAsync(source, ['push', '-q', appUrl, 'main']), 'app');
console.error('bench:git: pushed');
const rows: { name: string; app: Result; backend: Result; budget?: number }[] = [];
const cloneCase = async (name: string, args: string[], budget?: number) => {
  const a = await timed(() => gitAsync(work, ['clone', '-q', ...args, appUrl, join(work, `app-${rows.length}`)]), 'app');
  const b = await timed(() => gitAsync(work, ['clone', '-q', ...args, backendUrl, join(work, `backend-${rows.length}`)]), 'backend');
  rows.push({ name, app: a, backend: b, ...(budget !== undefined && { budget }) });
  console.error(`bench:git: ${name} done`);
};
await cloneCase('git clone (not repacked)', []);
const repackCpu = process.cpuUsage();
const repackStarted = performance.now();
const repacked = await repack({ ctx: provider.open({ queries: 0, ms: 0 }, () => undefined) }, project.id);
const repackWall = performance.now() - repackStarted;
const repackUsage = process.cpuUsage(repackCpu);
const repackCpuMs = (repackUsage.user + repackUsage.system) / 1000;
console.error('bench:git: repacked');
await cloneCase('git clone', [], 3);
await cloneCase('git clone --depth 1', ['--depth', '1']);
await cloneCase('git clone --filter=blob:none', ['--filter=blob:none']);

// Clones that will fetch, made now; then 10 commits pushed to both; then the fetches.
const fetcherApp = join(work, 'fetch-app');
const fetcherBackend = join(work, 'fetch-backend');
await gitAsync(work, ['clone', '-q', appUrl, fetcherApp]);
await gitAsync(work, ['clone', '-q', backendUrl, fetcherBackend]);
const writer = join(work, 'writer');
await gitAsync(work, ['clone', '-q', backendUrl, writer]);
{
  // Ten commits that change files: the pushes carry trees and blobs, not only commits.
  for (let i = 0; i < 10; i++) {
    const path = join(writer, `d00${i}`, 'f00.txt');
    spawnSync('sh', ['-c', `echo "pushed ${i}" >> "${path}"`]);
    git(writer, ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-am', `pushed ${i}`]);
  }
}
const pushApp = await timed(() => gitAsync(writer, ['push', '-q', appUrl, 'HEAD:main']), 'app');
const pushBackend = await timed(() => gitAsync(writer, ['push', '-q', backendUrl, 'HEAD:main']), 'backend');
rows.push({ name: 'git push (10 commits)', app: pushApp, backend: pushBackend });
const fetchApp = await timed(() => gitAsync(fetcherApp, ['fetch', '-q']), 'app');
const fetchBackend = await timed(() => gitAsync(fetcherBackend, ['fetch', '-q']), 'backend');
rows.push({ name: 'git fetch (10 new commits)', app: fetchApp, backend: fetchBackend, budget: 2 });

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
console.log(`bench:git: ${COMMITS} commits, ${FILES} files; initial push to the app ${fmt(initial.wall)} (${fmt(initial.cpu!)} CPU)`);
console.log(
  `repack (the git_garbage_collect job): ${fmt(repackWall)} (${fmt(repackCpuMs)} CPU), ${repacked?.objects ?? 0} objects, ${kib(repacked?.bytes ?? 0)} stored`,
);
console.log(['case', 'app wall', 'app CPU*', 'app bytes', 'http-backend wall', 'http-backend bytes', 'ratio', 'budget'].join(' | '));
const failures: string[] = [];
for (const r of rows) {
  const ratio = r.app.wall / r.backend.wall;
  const within = r.budget === undefined || ratio <= r.budget;
  if (!within) failures.push(`${r.name}: ${ratio.toFixed(2)}x > ${r.budget}x`);
  console.log(
    [
      r.name,
      fmt(r.app.wall),
      fmt(r.app.cpu!),
      kib(r.app.bytes),
      fmt(r.backend.wall),
      kib(r.backend.bytes),
      `${ratio.toFixed(2)}x`,
      r.budget ? `${r.budget}x ${within ? 'ok' : 'MISSED'}` : '-',
    ].join(' | '),
  );
}
if (pushApp.wall >= 1000) failures.push(`push of 10 commits: ${fmt(pushApp.wall)} >= 1000 ms`);
console.log(`push of 10 commits: ${fmt(pushApp.wall)} (budget < 1000 ms ${pushApp.wall < 1000 ? 'ok' : 'MISSED'})`);
console.log('* the app and its embedded database, in this process: an upper bound of the Worker CPU per operation');
server.close();
backend.close();
await client.close();
rmSync(work, { recursive: true, force: true });
if (CHECK && failures.length) {
  console.error(`budgets missed: ${failures.join('; ')}`);
  process.exit(1);
}
process.exit(0);
