// `npm run bench:git:workerd`: the Worker's CPU for git over HTTP, measured in workerd as bench:startup measures a
// cold start (the built bundle in plain `workerd serve`; CPU = the sum of /proc/<pid>/task/*/schedstat of the
// workerd process), against a fresh PostgreSQL database behind the local Neon stand-ins (which run in this process,
// so the database's and the stand-ins' CPU is not counted: what is printed is the Worker's). The repository is
// bench:git's (5,000 commits, 10,000 files; BENCH_GIT_COMMITS shrinks it), pushed in ten pushes of a tenth of its
// history each. For each operation it prints the wall time and the Worker's CPU over all of the operation's requests
// (the clone's ls-refs and fetch, ...), which bounds the CPU of its largest request, next to Cloudflare's limits: 30 s
// of CPU per request by default on the paid plan, raised up to 5 minutes with `limits.cpu_ms`.
//
// Order: the pushes (GIT_GC_AUTO=1: each push makes the project due a repack, run by the post_receive job after the
// response, as in production, whose CPU is measured until the new pack is current), then a clone streaming the
// stored pack, a --depth 1 clone and a --filter=blob:none clone (both planned object by object: the worst case a
// request meets), a push of 10 commits and, once its repack is done, an incremental fetch of them.
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as PgTypes from 'pg';
import { startPostgresTestDatabase } from '../helpers/postgres.ts';
import { createUserWithToken } from '../workers/global-setup.ts';
import { BENCH_COMMITS, generateRepository, git, GIT_ENV } from './git-repo.ts';
import { ensureBuilt, processCpuMs, startWorkerd, workerdBinary, workerdConfig } from './startup.ts';

const pg = createRequire(import.meta.url)('pg') as typeof PgTypes;
const PAID_PLAN_DEFAULT_CPU_MS = 30_000;
const PAID_PLAN_MAX_CPU_MS = 300_000;

function gitAsync(cwd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: GIT_ENV });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')}: ${err}`))));
  });
}

const work = mkdtempSync(join(tmpdir(), 'bench-git-workerd-'));
const source = join(work, 'source.git');
generateRepository(work, source);
console.error('bench:git:workerd: repository generated; building the Worker');
const bundle = ensureBuilt();
const db = await startPostgresTestDatabase();
const { token, user } = await createUserWithToken(db.url);
copyFileSync(bundle, join(work, 'worker.js'));
const configFile = workerdConfig(work, 'worker.js', {
  DATABASE_URL: db.url,
  NEON_WS_PROXY: db.wsProxy,
  NEON_HTTP_ENDPOINT: db.httpEndpoint,
  PUBLIC_URL: 'http://127.0.0.1',
  INSTANCE_TIER: 'free',
  MAX_PUSH_SIZE: String(1 << 30),
  GIT_GC_AUTO: '1',
  ENCRYPTION_KEY: 'dGVzdC1vbmx5LWtleS0wMTIzNDU2Nzg5YWJjZGVmMDE=',
});
const { child: workerd, port, out } = await startWorkerd(workerdBinary(), configFile);
const base = `http://127.0.0.1:${port}`;
const created = await fetch(`${base}/api/v4/projects`, {
  method: 'POST',
  headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench-git' }),
});
if (created.status !== 201) throw new Error(`project: ${created.status} ${await created.text()}`);
const project = (await created.json()) as { id: number; path_with_namespace: string };
const url = `http://${user.username}:${token}@127.0.0.1:${port}/${project.path_with_namespace}.git`;

const client = new pg.Client({ connectionString: db.url });
await client.connect();
/** The current pack's tips (none before the first repack). */
const packTips = async () =>
  (await client.query<{ tips: string[] }>('SELECT tips FROM git_packs WHERE project_id = $1 AND replaced_at IS NULL', [project.id])).rows[0]?.tips ?? [];
/** Waits until the current pack was built from `tip`: the repack the last push started is done. */
async function repacked(tip: string) {
  for (;;) {
    if ((await packTips()).includes(tip)) return;
    if (workerd.exitCode !== null) throw new Error(`workerd exited: ${out.stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Row {
  name: string;
  wallMs: number;
  cpuMs: number;
}
const rows: Row[] = [];
async function measure(name: string, run: () => Promise<void>): Promise<Row> {
  const cpu = processCpuMs(workerd.pid!);
  const t0 = performance.now();
  await run();
  const row = { name, wallMs: performance.now() - t0, cpuMs: processCpuMs(workerd.pid!) - cpu };
  rows.push(row);
  console.error(`bench:git:workerd: ${name}: ${row.wallMs.toFixed(0)} ms, ${row.cpuMs.toFixed(0)} ms CPU`);
  return row;
}

try {
  // The history in ten pushes; each push's repack is measured after it (and done before the next push).
  const history = git(source, ['rev-list', '--reverse', 'main']).trim().split('\n');
  const step = Math.ceil(history.length / 10);
  let maxPush: Row | undefined;
  let maxRepack: Row | undefined;
  for (let at = step - 1; at < history.length + step - 1; at += step) {
    const tip = history[Math.min(at, history.length - 1)]!;
    const n = Math.min(at + 1, history.length);
    const pushed = await measure(`push up to commit ${n}`, () => gitAsync(source, ['push', '-q', url, `${tip}:refs/heads/main`]));
    const packed = await measure(`post_receive and repack at commit ${n}`, () => repacked(tip));
    if (!maxPush || pushed.cpuMs > maxPush.cpuMs) maxPush = pushed;
    if (!maxRepack || packed.cpuMs > maxRepack.cpuMs) maxRepack = packed;
  }
  await measure('git clone (the stored pack)', () => gitAsync(work, ['clone', '-q', url, join(work, 'clone-full')]));
  const fetcher = join(work, 'clone-fetch');
  await gitAsync(work, ['clone', '-q', url, fetcher]);
  await measure('git clone --depth 1', () => gitAsync(work, ['clone', '-q', '--depth', '1', url, join(work, 'clone-depth')]));
  await measure('git clone --filter=blob:none (and its checkout)', () =>
    gitAsync(work, ['clone', '-q', '--filter=blob:none', url, join(work, 'clone-blobless')]),
  );
  const writer = join(work, 'clone-full');
  for (let i = 0; i < 10; i++) {
    // Ten commits that change files: the push carries trees and blobs, not only commits.
    appendFileSync(join(writer, `d00${i}`, 'f00.txt'), `pushed ${i}\n`);
    git(writer, ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-am', `pushed ${i}`]);
  }
  await measure('git push (10 commits)', () => gitAsync(writer, ['push', '-q', 'origin', 'HEAD:main']));
  await measure('post_receive and repack after it', () => repacked(git(writer, ['rev-parse', 'HEAD']).trim()));
  await measure('git fetch (10 new commits)', () => gitAsync(fetcher, ['fetch', '-q']));

  console.log(`bench:git:workerd: ${BENCH_COMMITS} commits, 10000 files; the Worker in workerd, PostgreSQL behind the Neon stand-ins`);
  console.log('operation | wall | Worker CPU (all its requests) | of the paid plan default (30 s)');
  const summary = [maxPush!, maxRepack!, ...rows.slice(-6)];
  for (const r of summary) {
    console.log(
      [
        r === maxPush ? `largest ${r.name}` : r === maxRepack ? `largest ${r.name}` : r.name,
        `${r.wallMs.toFixed(0)} ms`,
        `${r.cpuMs.toFixed(0)} ms`,
        `${((100 * r.cpuMs) / PAID_PLAN_DEFAULT_CPU_MS).toFixed(0)}%`,
      ].join(' | '),
    );
  }
  const over = summary.filter((r) => r.cpuMs > PAID_PLAN_DEFAULT_CPU_MS);
  console.log(
    over.length
      ? `over the default 30 s (raise limits.cpu_ms, at most ${PAID_PLAN_MAX_CPU_MS / 1000} s): ${over.map((r) => r.name).join('; ')}`
      : 'every operation is under the paid plan default of 30 s of CPU',
  );
} finally {
  await client.end();
  workerd.kill('SIGKILL');
  await db.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
