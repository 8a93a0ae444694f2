// `npm run bench:startup`: the Worker's cold start in plain workerd, against a hello Worker in the same run.
//
// Builds the Worker (`wrangler deploy --dry-run --outdir dist --minify`) unless dist/index.js is newer than every
// source file (or BENCH_STARTUP_BUILD=0), then, for each of the hello Worker and the built Worker, several times and
// alternating: spawns a fresh `workerd serve` (the binary wrangler ships in node_modules; one process is one fresh
// isolate), waits for its listen event on the control fd, sends one request and reads the body. CPU is workerd's
// own thread accounting from the kernel: the sum of /proc/<pid>/task/*/schedstat (ns on CPU, every thread) read
// when the first response has been read. It covers process start, compiling and evaluating the modules (workerd
// evaluates a module Worker's top level when it loads the config) and the first request; the hello Worker pays the
// same process start, so the difference is what the bundle costs a fresh isolate. Medians are reported.
//
// The probes:
// - rest: GET /api/v4/projects?visibility=bogus: the CORS/body-limit middleware, the REST router, the actor
//   (anonymous), the route's query validator (zod) and GitLab's 400 body. No statement is sent;
// - rest-db: GET /api/v4/projects with an unknown PRIVATE-TOKEN: the same plus the production database path (the
//   Neon driver and drizzle-orm/neon-http loaded, the token looked up over Neon's HTTP protocol) and GitLab's 401.
//   NEON_HTTP_ENDPOINT points at a stub in this process that answers every statement with no rows, so the figure is
//   the Worker's CPU, not a database's. What most first requests do, so this is the one `npm run build` holds to the
//   ceiling;
// - graphql: POST /api/graphql { metadata { version } } anonymously: the Yoga instance and the GraphQL schema.
//
// exported: measureStartup() (the figures), report() (the printed table, for `npm run bench`), checkStartupBudget()
// (`tsx tests/bench/startup.ts --check`, the last step of `npm run build`).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const COMPATIBILITY_DATE = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'))?.[1] ?? '2026-10-20';

/**
 * The cold-start ceiling `npm run build` enforces: CPU of a fresh isolate's first request that reaches the database
 * (the rest-db probe) above the hello Worker's, in ms until 2026-11-28 (a ratio since, below). Set from the measurement (2026-11-24, 2 vCPU Xeon, idle machine,
 * median of 9): +98 ms before schemas were built lazily, +81..87 ms after, +97..100 ms with the repository domain
 * (1.21 MiB raw bundle: the git codec, storage, REST, GraphQL and diffs with the `diff` library add about 10 ms, most
 * of it evaluating modules every isolate loads; loading that domain on first use is the next step). About 30 ms of
 * it is V8 compiling the bundle's bytes (a never-called copy of the bundle costs that much). Room for noise on top:
 * medians move by about 10 ms between runs, and CI must not go red on noise. It catches regressions while the goal
 * (STARTUP_GOAL_MS, issue 13) is not met; lower it as the goal nears.
 *
 * Raised to 150 on 2026-11-24 with CI/CD (issue 18): on that day's 2 vCPU AMD EPYC machine the commit before it
 * (a4f0a58, +101..102 in its own session) measured +114..134 over four interleaved runs of 7 and the CI commit
 * +122..147 in the same runs (and +132 in a later build): the machine moves by more than the 115 ceiling's headroom,
 * so the ceiling now catches gross regressions (a parser or a table build evaluated at every start) and the trend is
 * read from the Node import, without workerd's process noise: importing the two bundles, the CI domains cost about
 * +9 ms (their bytes compiled at every start; nothing of them is evaluated before use). Splitting would not help
 * (workerd compiles every uploaded module at isolate start, README "Performance"): the lever is fewer code bytes.
 */
/*
 * Raised to 275 on 2026-11-28: that session's 2 vCPU Xeon measured every commit far above the earlier machines (stop
 * 38's landed commit 1e95e28, under 150 in its own CI, at +200.8; the tree at +220..244; hello 23 ms).
 *
 * Since 2026-11-28 (second session) the ceiling is a RATIO, not milliseconds: the next machine (2 vCPU EPYC) measured
 * the same trees at +302..320 ms (hello 29..33 ms) and the build failed on a change that added no code at start. The
 * same-run comparison settled it: stop 38's bundle and the current one, interleaved three times with 5 samples each,
 * +324..342 and +337..345 ms (rest probe), the same set of 216 modules evaluated by the first request (read from the
 * Node import with esbuild's lazy wrappers instrumented) and 11 KiB more bundle. No regression: the machine moved.
 * A fresh isolate's first request is compile and evaluate work, and so is most of hello's process start, so their
 * ratio moves far less between machines: about 8..10x on the earlier ones, 10.3..10.9x on this one. The ceiling is
 * 13x hello's CPU: about 20% over today's figure, which catches a parser or a table evaluated at every start.
 */
export const STARTUP_BUDGET_RATIO = 13;
/** The goal: <= 40 ms CPU above hello on the first request. */
export const STARTUP_GOAL_MS = 40;

export interface Probe {
  name: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** The status the request must answer (a fast 500 never counts). */
  status: number;
}

const UNKNOWN_TOKEN = 'glpat-benchstartup0000000';

export const PROBES: Probe[] = [
  { name: 'rest', method: 'GET', path: '/api/v4/projects?visibility=bogus', status: 400 },
  { name: 'rest-db', method: 'GET', path: '/api/v4/projects', headers: { 'private-token': UNKNOWN_TOKEN }, status: 401 },
  {
    name: 'graphql',
    method: 'POST',
    path: '/api/graphql',
    body: JSON.stringify({ query: '{ metadata { version } }' }),
    headers: { 'content-type': 'application/json' },
    status: 200,
  },
];

export interface Sample {
  /** CPU (all workerd threads) from spawn until the listen event: process start + module compile/evaluate. */
  startupCpuMs: number;
  /** CPU from spawn until the first response's body was read. */
  cpuMs: number;
  /** Wall time from spawn until the first response's body was read. */
  wallMs: number;
}

export interface StartupFigures {
  runs: number;
  bundle: { file: string; rawBytes: number; gzipBytes: number };
  hello: Sample;
  /** Per probe: the medians for the Worker, and the differences to hello. */
  worker: Record<string, Sample & { status: number; aboveHelloCpuMs: number; ratioCpu: number; aboveHelloWallMs: number }>;
  /** The ceiling: rest-db's CPU over hello's. */
  budgetRatio: number;
  method: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function workerdBinary(): string {
  // The `workerd` npm package that miniflare (wrangler's) depends on: its main exports the platform binary's path.
  const require = createRequire(join(ROOT, 'package.json'));
  const mod = require('workerd') as { default?: string } | string;
  return typeof mod === 'string' ? mod : mod.default!;
}

/** Every thread's time on CPU, in ms (schedstat's first field is ns). */
export function processCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread exited between the listing and the read
    }
  }
  return ns / 1e6;
}

export function workerdConfig(dir: string, moduleFile: string, bindings: Record<string, string>): string {
  const b = Object.entries(bindings)
    .map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`)
    .join(', ');
  const file = join(dir, `${moduleFile}.capnp`);
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w), (name = "internet", network = (allow = ["public", "private", "local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "index.js", esModule = embed ${JSON.stringify(moduleFile)}) ],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
  bindings = [ ${b} ],
);
`,
  );
  return file;
}

/** A fresh `workerd serve` of `configFile`: the process, its port once it listens, and what it wrote to stderr. */
export async function startWorkerd(bin: string, configFile: string) {
  const child = spawn(bin, ['serve', configFile, '--control-fd=3', '--experimental'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const out = { stderr: '' };
  child.stderr!.on('data', (d) => (out.stderr += d));
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      let buf = '';
      const control = child.stdio[3] as NodeJS.ReadableStream;
      control.on('data', (d) => {
        buf += d;
        for (const line of buf.split('\n')) {
          try {
            const event = JSON.parse(line) as { event?: string; port?: number };
            if (event.event === 'listen' && event.port) resolvePort(event.port);
          } catch {
            // partial line
          }
        }
      });
      child.on('exit', (code) => reject(new Error(`workerd exited (${code}): ${out.stderr}`)));
      setTimeout(() => reject(new Error(`workerd did not listen in 20 s: ${out.stderr}`)), 20_000);
    });
    return { child, port, out };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** One fresh workerd process, one request. */
async function coldRequest(bin: string, configFile: string, probe: Probe): Promise<Sample & { status: number }> {
  const t0 = performance.now();
  const { child, port } = await startWorkerd(bin, configFile);
  try {
    const startupCpuMs = processCpuMs(child.pid!);
    const res = await fetch(`http://127.0.0.1:${port}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body });
    await res.arrayBuffer();
    const cpuMs = processCpuMs(child.pid!);
    const wallMs = performance.now() - t0;
    return { startupCpuMs, cpuMs, wallMs, status: res.status };
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  }
}

/**
 * Neon's HTTP `/sql` endpoint as far as the rest-db probe needs it: every statement (or batch) answers no rows, in
 * the wire format db/local/neon-http-shim.ts documents.
 */
async function emptyNeonEndpoint(): Promise<{ url: string; close: () => Promise<void> }> {
  const empty = { fields: [], rows: [], command: 'SELECT', rowCount: 0, rowAsArray: true };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { queries?: unknown[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(parsed.queries ? { results: parsed.queries.map(() => empty) } : empty));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sql`, close: () => new Promise((r) => server.close(() => r())) };
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'public') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/index.js unless it is newer than functions/, db/ and package-lock.json (or BENCH_STARTUP_BUILD=0). */
export function ensureBuilt(): string {
  const bundle = join(ROOT, 'dist/index.js');
  let fresh = false;
  try {
    const built = statSync(bundle).mtimeMs;
    fresh =
      process.env.BENCH_STARTUP_BUILD === '0' ||
      built > Math.max(newestSource(join(ROOT, 'functions')), newestSource(join(ROOT, 'db')), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  } catch {
    fresh = false;
  }
  if (!fresh) {
    const out = spawnSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', 'dist', '--minify'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    });
    if (out.status !== 0) throw new Error('wrangler deploy --dry-run failed');
  }
  return bundle;
}

export async function measureStartup(options: { runs?: number; bundle?: string; probes?: Probe[] } = {}): Promise<StartupFigures> {
  const runs = options.runs ?? Number(process.env.BENCH_STARTUP_RUNS ?? 7);
  const bundle = options.bundle ?? ensureBuilt();
  const probes = options.probes ?? PROBES;
  const bin = workerdBinary();
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const neonStub = await emptyNeonEndpoint();
  try {
    writeFileSync(join(dir, 'hello.js'), "export default { fetch() { return new Response('ok'); } };\n");
    copyFileSync(bundle, join(dir, 'worker.js'));
    const helloConfig = workerdConfig(dir, 'hello.js', {});
    const workerConfig = workerdConfig(dir, 'worker.js', {
      DATABASE_URL: 'postgresql://bench:bench@127.0.0.1:9/bench',
      PUBLIC_URL: 'http://127.0.0.1',
      INSTANCE_TIER: 'free',
      NEON_HTTP_ENDPOINT: neonStub.url,
    });
    const raw = readFileSync(bundle);
    const hello: Sample[] = [];
    const worker = new Map<string, (Sample & { status: number })[]>(probes.map((p) => [p.name, []]));
    // Warm the page cache and the binary once (not counted).
    await coldRequest(bin, helloConfig, { name: 'hello', method: 'GET', path: '/', status: 200 });
    for (let i = 0; i < runs; i++) {
      hello.push(await coldRequest(bin, helloConfig, { name: 'hello', method: 'GET', path: '/', status: 200 }));
      for (const probe of probes) {
        const sample = await coldRequest(bin, workerConfig, probe);
        if (sample.status !== probe.status) throw new Error(`${probe.name}: ${probe.method} ${probe.path} answered ${sample.status}, expected ${probe.status}`);
        worker.get(probe.name)!.push(sample);
      }
    }
    const med = (xs: Sample[]): Sample => ({
      startupCpuMs: median(xs.map((x) => x.startupCpuMs)),
      cpuMs: median(xs.map((x) => x.cpuMs)),
      wallMs: median(xs.map((x) => x.wallMs)),
    });
    const h = med(hello);
    const figures: StartupFigures = {
      runs,
      bundle: { file: bundle, rawBytes: raw.length, gzipBytes: gzipSync(raw, { level: 9 }).length },
      hello: h,
      worker: {},
      budgetRatio: STARTUP_BUDGET_RATIO,
      method: `workerd ${COMPATIBILITY_DATE}, fresh process per sample, CPU = sum of /proc/<pid>/task/*/schedstat, median of ${runs}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`,
    };
    for (const probe of probes) {
      const xs = worker.get(probe.name)!;
      const m = med(xs);
      figures.worker[probe.name] = {
        ...m,
        status: xs[0]!.status,
        aboveHelloCpuMs: m.cpuMs - h.cpuMs,
        ratioCpu: m.cpuMs / h.cpuMs,
        aboveHelloWallMs: m.wallMs - h.wallMs,
      };
    }
    return figures;
  } finally {
    await neonStub.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printFigures(f: StartupFigures): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(9);
  console.log(
    `bundle ${f.bundle.file.replace(`${ROOT}/`, '')}: ${(f.bundle.rawBytes / 1024).toFixed(1)} KiB raw, ${(f.bundle.gzipBytes / 1024).toFixed(1)} KiB gzip`,
  );
  console.log(`cold start (${f.method})`);
  console.log(
    `${'first request'.padEnd(44)} ${'load CPU'.padStart(9)} ${'CPU'.padStart(9)} ${'wall'.padStart(9)} ${'CPU-hello'.padStart(10)} ${'ratio'.padStart(6)} ${'wall-hello'.padStart(10)}`,
  );
  console.log(`${'hello Worker  GET /'.padEnd(44)} ${ms(f.hello.startupCpuMs)} ${ms(f.hello.cpuMs)} ${ms(f.hello.wallMs)}`);
  for (const probe of PROBES) {
    const w = f.worker[probe.name];
    if (!w) continue;
    const label = `${probe.name.padEnd(8)} ${probe.method} ${probe.path}`.slice(0, 44).padEnd(44);
    console.log(
      `${label} ${ms(w.startupCpuMs)} ${ms(w.cpuMs)} ${ms(w.wallMs)} ${`+${w.aboveHelloCpuMs.toFixed(1)} ms`.padStart(10)} ${`${w.ratioCpu.toFixed(1)}x`.padStart(6)} ${`+${w.aboveHelloWallMs.toFixed(1)} ms`.padStart(10)}`,
    );
  }
  console.log(`first database request (rest-db): ceiling ${f.budgetRatio}x hello's CPU (enforced by npm run build), goal ${STARTUP_GOAL_MS} ms above hello`);
}

/** For `npm run bench`: measures and prints. */
export async function report(): Promise<StartupFigures> {
  const figures = await measureStartup();
  printFigures(figures);
  return figures;
}

/** For `npm run build`: true when the first database request of a fresh isolate stays within the budget. */
export async function checkStartupBudget(bundle: string, runs = 5): Promise<boolean> {
  // A second measurement before failing: a busy machine (CI runs the build after the suites) can spike one run.
  for (let attempt = 1; ; attempt++) {
    const figures = await measureStartup({ bundle, runs, probes: PROBES.filter((p) => p.name === 'rest-db') });
    printFigures(figures);
    const { ratioCpu, aboveHelloCpuMs } = figures.worker['rest-db']!;
    if (ratioCpu <= STARTUP_BUDGET_RATIO) return true;
    console.error(
      `startup: the first database request costs ${ratioCpu.toFixed(1)}x hello's CPU (+${aboveHelloCpuMs.toFixed(1)} ms), over the ${STARTUP_BUDGET_RATIO}x ceiling`,
    );
    if (attempt === 2) return false;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    // `npm run build`, after wrangler and bundle-size: about 3 s (7 fresh workerd processes per Worker).
    if (!(await checkStartupBudget(join(ROOT, 'dist/index.js'), 7))) process.exit(1);
  } else {
    await report();
  }
}
