// `npm run bench:tree`: issue 28's quadratic tree building (a ~9.8 KB request creating 5,000 directories took about
// 70 s of CPU). Through POST repository/commits on the embedded database: the issue's request (one path 4,900
// directories deep), now refused at once by the path cap (commit-limits.ts), and 5,000 directories in the deepest
// shape the caps accept (25 chains of 200, ~11 KB); then the tree building alone (applyActions) for growing numbers
// of directories, whose ratios show the growth (about 2x per doubling: O(n log n); the old rebuild was cubic).
//
// Unlike the other benchmarks this one fails: the issue's budget is under 1 s of CPU for the request on this
// machine (process.cpuUsage, which counts the in-process PGlite too; best of 3), exit code 1 above it.
import { pgliteProvider } from '../../db/client.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { createApp } from '../../functions/app.ts';
import type { Env } from '../../functions/env.ts';
import { applyActions, type FileAction } from '../../functions/repositories/writes/commit-actions.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';

const BUDGET_MS = 1000;
const env: Env = { PUBLIC_URL: 'http://bench.local', INSTANCE_TIER: 'free' };

const client = await openEmbedded();
const provider = pgliteProvider(client);
const app = createApp({ database: () => provider });
const root = (await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction))!;
const call = (method: string, path: string, body?: unknown) =>
  app.fetch(
    new Request(`http://bench.local/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': root.token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
  );

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** `chains` actions, each creating a file under `depth` nested directories named by one letter. */
const chainActions = (chains: number, depth: number) =>
  Array.from({ length: chains }, (_, c) => ({
    action: 'create' as const,
    file_path: `${`${String.fromCharCode(97 + (c % 26))}${c >= 26 ? c : ''}/`.repeat(depth)}f`,
    content: '',
  }));

// ---- The requests, through HTTP ----
const project = (await (await call('POST', '/projects', { name: 'bench-tree', initialize_with_readme: true })).json()) as { id: number };
const commitsUrl = `/projects/${project.id}/repository/commits`;
/** The CPU of one request and its answer. */
async function timed(body: unknown): Promise<{ cpu: number; status: number; text: string; timing: string }> {
  const start = process.cpuUsage();
  const res = await call('POST', commitsUrl, body);
  const text = await res.text();
  return { cpu: cpuMs(start), status: res.status, text, timing: res.headers.get('server-timing') ?? '' };
}
const kb = (body: unknown) => `${(JSON.stringify(body).length / 1024).toFixed(1)} KB`;

// One small commit first: the first request also pays for compiling the routes.
const warm = await timed({ branch: 'master', commit_message: 'warm up', actions: [{ action: 'create', file_path: 'warm/up.txt', content: '' }] });
if (warm.status !== 201) throw new Error(`warm-up commit: ${warm.status} ${warm.text.slice(0, 200)}`);

const issueBody = { branch: 'master', commit_message: 'deep', actions: chainActions(1, 4900) };
const refused = await timed(issueBody);
if (refused.status !== 400) throw new Error(`the issue's request: ${refused.status} ${refused.text.slice(0, 200)}`);
console.log(`the issue's request: ${kb(issueBody)}, one path 4,900 directories deep: ${refused.status} ${refused.text} in ${refused.cpu.toFixed(1)} ms CPU`);

let requestCpu = Infinity;
for (let run = 0; run < 3; run++) {
  const body = { branch: 'master', commit_message: `deep ${run}`, actions: chainActions(25, 200).map((a) => ({ ...a, file_path: `r${run}${a.file_path}` })) };
  const done = await timed(body);
  if (done.status !== 201) throw new Error(`POST repository/commits: ${done.status} ${done.text.slice(0, 200)}`);
  requestCpu = Math.min(requestCpu, done.cpu);
  console.log(`5,000 directories (25 chains of 200), request ${run + 1}: ${kb(body)}, ${done.cpu.toFixed(0)} ms CPU (${done.timing})`);
}

// ---- The tree building alone ----
const encoder = new TextEncoder();
const asFileActions = (actions: ReturnType<typeof chainActions>): FileAction[] =>
  actions.map((a) => ({ action: a.action, path: a.file_path.split('/').map((p) => encoder.encode(p)), content: new Uint8Array() }));
const rows: { name: string; dirs: number; cpuMs: number; ratio: string }[] = [];
let previous = 0;
for (const dirs of [1250, 2500, 5000, 10000]) {
  const actions = asFileActions(chainActions(dirs / 1250, 1250));
  const start = process.cpuUsage();
  await applyActions([], actions);
  const used = cpuMs(start);
  rows.push({ name: 'applyActions', dirs, cpuMs: Math.round(used), ratio: previous ? `${(used / previous).toFixed(2)}x` : '-' });
  previous = used;
}
console.table(rows);

const worst = Math.max(refused.cpu, requestCpu);
console.log(
  `budget: each request under ${BUDGET_MS} ms CPU; the issue's ${refused.cpu.toFixed(1)} ms, 5,000 directories ${requestCpu.toFixed(0)} ms (best of 3)`,
);
await client.close();
if (worst > BUDGET_MS) {
  console.error(`FAIL: ${worst.toFixed(0)} ms CPU is over the budget of ${BUDGET_MS} ms`);
  process.exit(1);
}
