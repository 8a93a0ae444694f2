// `npm run bench:repo`: the repository reads and writes over a generated repository of 5,000 commits and 10,000
// files (BENCH_REPO_COMMITS shrinks it), on the embedded database (in-process PGlite): p50/p99 of a file at depth 10,
// a tree page of 100 entries, a commits page of 100 (with and without `path`), a commit of 20 actions and a fork,
// a tar.bz2 archive of 980 files built and then read back from the cache,
// 100 merge requests listed, one with 50 changed files, merges of 20 files, GraphQL's page of 50 MRs,
// with the queries and round trips each costs (read from Server-Timing) and the ratio of each p50 to GET /version.
// The budgets are asserted in tests (tests/api/repositories/read-budget.test.ts); this prints figures only.
//
// The history is written straight into the store (the codec and prepareWrite, as a push will): 9,800 files in
// m0..m9/s0..s9/ (98 each), 190 in wide/, README.md, and a chain deep/l1/.../l9/ of 10; commit 1 adds them all, each later
// commit edits one or two files (every tenth one the file at depth 10).
import { cpus } from 'node:os';
import { pgliteProvider } from '../../db/client.ts';
import { createRepository, findRepository, setDefaultBranchQuery } from '../../db/queries/repositories/refs.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { createApp } from '../../functions/app.ts';
import { MemoryResponseCache } from '../../functions/lib/response-cache.ts';
import type { Env } from '../../functions/env.ts';
import { encodeCommit } from '../../functions/repositories/git/commit.ts';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import { encodeTree, type TreeEntry } from '../../functions/repositories/git/tree.ts';
import { applyWrite, prepareWrite, type GitObject } from '../../functions/repositories/store/store.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';
import { measure as measureRequests, printRows, type Row } from './measure.ts';

const COMMITS = Number(process.env.BENCH_REPO_COMMITS ?? 5000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const WRITES = Math.min(ITERATIONS, 30);
const env: Env = { PUBLIC_URL: 'http://bench.local', INSTANCE_TIER: 'free' };

const client = await openEmbedded();
// The Workers cache's stand-in, as under `npm start`: archives are kept there.
const cache = new MemoryResponseCache();
const provider = pgliteProvider(client);
const app = createApp({ database: () => provider, cache: () => cache });
const database = provider.open({ queries: 0, ms: 0 }, () => undefined);
const root = (await bootstrapRoot(database.transaction))!;
const auth = { 'PRIVATE-TOKEN': root.token };
const call = (method: string, path: string, body?: unknown) =>
  app.fetch(
    new Request(`http://bench.local/api/v4${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
  );

// ---- The repository, generated ----
const encoder = new TextEncoder();
const DEEP = ['deep', ...Array.from({ length: 8 }, (_, i) => `l${i + 1}`)]; // 9 directories: the leaf is at depth 10
const DEEP_FILE = [...DEEP, 'leaf.txt'].join('/');
const files: string[] = [];
for (let m = 0; m < 10; m++) for (let s = 0; s < 10; s++) for (let f = 0; f < 98; f++) files.push(`m${m}/s${s}/f${String(f).padStart(3, '0')}.txt`);
for (let f = 0; f < 190; f++) files.push(`wide/w${String(f).padStart(3, '0')}.txt`);
files.push('README.md');
for (let d = 1; d <= DEEP.length; d++) files.push(`${DEEP.slice(0, d).join('/')}/${d === DEEP.length ? 'leaf' : 'side'}.txt`);

/** The working tree: directory path -> name -> entry; a directory's entry is filled in when its tree is encoded. */
const dirs = new Map<string, Map<string, { mode: string; oid: string }>>([['', new Map()]]);
const pending: GitObject[] = [];
async function putFile(path: string, content: string) {
  const body = encoder.encode(content);
  pending.push({ type: 'blob', body });
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if (!dirs.has(dir)) {
      dirs.set(dir, new Map());
      dirs.get(parts.slice(0, i - 1).join('/'))!.set(parts[i - 1]!, { mode: '40000', oid: '' });
    }
  }
  dirs.get(parts.slice(0, -1).join('/'))!.set(parts.at(-1)!, { mode: '100644', oid: await hashObject('blob', body) });
}
/** Encodes the trees along the changed paths, deepest first; the root tree's id. */
async function writeTrees(changed: readonly string[]): Promise<string> {
  const touched = new Set<string>(['']);
  for (const path of changed) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) touched.add(parts.slice(0, i).join('/'));
  }
  let rootOid = '';
  for (const dir of [...touched].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? 1 : -1))) {
    const entries: TreeEntry[] = [...dirs.get(dir)!].map(([name, e]) => ({ name: encoder.encode(name), mode: e.mode, oid: e.oid }));
    const body = encodeTree(entries);
    const oid = await hashObject('tree', body);
    pending.push({ type: 'tree', body });
    if (dir === '') rootOid = oid;
    else {
      const slash = dir.lastIndexOf('/');
      dirs.get(slash === -1 ? '' : dir.slice(0, slash))!.get(dir.slice(slash + 1))!.oid = oid;
    }
  }
  return rootOid;
}

const project = (await (await call('POST', '/projects', { name: 'bench-repo' })).json()) as { id: number; path_with_namespace: string };
const poolId = (await findRepository(database.db, project.id))?.poolId ?? (await createRepository(database.db, project.id));
const started = performance.now();
let head: string | null = null;
let written: string | null = null;
let time = 1_600_000_000;
const signature = () => ({ name: 'Bench', email: 'bench@example.com', time: (time += 60), tz: '+0000' });
for (const path of files) await putFile(path, `${path}\n`);
let changed = files;
for (let n = 1; n <= COMMITS; n++) {
  if (n > 1) {
    changed = n % 10 === 0 ? [DEEP_FILE] : [files[(n * 7919) % files.length]!, files[(n * 104729) % files.length]!];
    for (const path of changed) await putFile(path, `${path}\nedit ${n}\n`);
  }
  const tree = await writeTrees(changed);
  const sig = signature();
  const body = encodeCommit({ tree, parents: head ? [head] : [], author: sig, committer: sig, headers: [], message: encoder.encode(`Commit ${n}\n`) });
  pending.push({ type: 'commit', body });
  head = await hashObject('commit', body);
  if (n % 250 === 0 || n === COMMITS) {
    await applyWrite(database, poolId, await prepareWrite(pending.splice(0)), [{ projectId: project.id, name: 'refs/heads/main', old: written, new: head }]);
    written = head;
  }
}
await setDefaultBranchQuery(database.db, project.id, 'main');
const seeded = (performance.now() - started) / 1000;

/** GET repository/archive.tar.bz2 of one directory, from the client IP numbered `ip`. */
const archive = (path: string, ip: number) =>
  app.fetch(
    new Request(`http://bench.local/api/v4/projects/${project.id}/repository/archive.tar.bz2?path=${path}`, {
      headers: { ...auth, 'cf-connecting-ip': `bench-${ip}` },
    }),
    env,
  );

// ---- Measuring (tests/bench/measure.ts) ----
const measure = (name: string, run: (i: number) => Response | Promise<Response>, iterations = ITERATIONS) => measureRequests(name, run, iterations);

const repo = `/projects/${project.id}/repository`;
const version = await measure('GET /version', () => call('GET', '/version'));
const rows: Row[] = [
  version,
  await measure('file at depth 10', () => call('GET', `${repo}/files/${encodeURIComponent(DEEP_FILE)}?ref=main`)),
  await measure('tree page of 100 (wide/)', () => call('GET', `${repo}/tree?path=wide&per_page=100`)),
  await measure('tree page of 100 (recursive)', () => call('GET', `${repo}/tree?recursive=true&per_page=100&page=3`)),
  await measure('commits page of 100', () => call('GET', `${repo}/commits?per_page=100`)),
  await measure('commits page of 100, path', () => call('GET', `${repo}/commits?per_page=100&path=${encodeURIComponent(DEEP_FILE)}`)),
  await measure('commits page 20 of 100', () => call('GET', `${repo}/commits?per_page=100&page=20`)),
  await measure(
    'commit with 20 actions',
    (i) =>
      call('POST', `${repo}/commits`, {
        branch: 'main',
        commit_message: `bench ${i}`,
        actions: Array.from({ length: 20 }, (_, k) => ({
          action: 'update',
          file_path: files[((i * 20 + k) * 37) % files.length],
          content: `bench ${i} ${k}\n`,
        })),
      }),
    WRITES,
  ),
  await measure('fork', (i) => call('POST', `/projects/${project.id}/fork`, { name: `bench-fork-${i}`, path: `bench-fork-${i}` }), WRITES),
  // A directory of 980 files as tar.bz2: built (each m<i>/ asked for the first time), then the same archive again
  // (read back from the cache). One client IP a request: the archive throttle allows 5 a minute per IP.
  await measure('archive tar.bz2 980 files, new', (i) => archive(`m${i}`, i), 10),
  await measure('archive tar.bz2 980 files, again', (i) => archive('m0', 10 + i)),
];

// ---- Merge requests: a list of 100, one with 50 changed files, merges of 20 files ----
const mrs = `/projects/${project.id}/merge_requests`;
const ok = async (res: Response | Promise<Response>) => {
  const r = await res;
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return r.json() as Promise<{ iid: number }>;
};
/** A branch off main with one commit changing `count` files (from `offset` in the file list), and its MR. */
async function mergeRequestOf(name: string, offset: number, count: number) {
  await ok(call('POST', `${repo}/branches`, { branch: name, ref: 'main' }));
  const actions = Array.from({ length: count }, (_, k) => ({ action: 'update', file_path: files[(offset + k) % files.length], content: `${name} ${k}\n` }));
  await ok(call('POST', `${repo}/commits`, { branch: name, commit_message: name, actions }));
  return ok(call('POST', mrs, { source_branch: name, target_branch: 'main', title: name }));
}
for (let i = 0; i < 100; i++) await mergeRequestOf(`list-${i}`, 5000 + i, 1);
const wide = await mergeRequestOf('changes-50', 7000, 50);
const merging: number[] = [];
for (let i = 0; i < WRITES; i++) merging.push((await mergeRequestOf(`merge-${i}`, 8000 + i * 20, 20)).iid);
rows.push(
  await measure('MR list of 100', () => call('GET', `${mrs}?per_page=100`)),
  await measure('MR changes, 50 files', () => call('GET', `${mrs}/${wide.iid}/changes`)),
  await measure('MR merge, 20 files', (i) => call('PUT', `${mrs}/${merging[i]}/merge`, {}), WRITES),
  await measure('GraphQL project + 50 MRs', () =>
    app.fetch(
      new Request('http://bench.local/api/graphql', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `{ project(fullPath: "${project.path_with_namespace}") { mergeRequests(first: 50) { nodes { iid author { username } assignees { nodes { username } } labels { nodes { title } } diffStats { path additions deletions } } } } }`,
        }),
      }),
      env,
    ),
  ),
);
await client.close();

console.log(`\nnpm run bench:repo — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
console.log(
  `${COMMITS} commits, ${files.length} files (seeded in ${seeded.toFixed(0)} s); ${ITERATIONS} iterations a read (${WRITES} a write), in-process PGlite\n`,
);
printRows('request', rows);
