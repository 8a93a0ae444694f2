// The benchmark repository of `npm run bench:git` and `npm run bench:git:workerd`, generated with `git fast-import`
// into a bare repository on disk: `commits` commits (5,000 unless BENCH_GIT_COMMITS says), 10,000 files in 100
// directories; the first commit adds every file, each later one edits two. Then `git gc`, as a served repository is.
import { spawnSync } from 'node:child_process';

export const BENCH_COMMITS = Number(process.env.BENCH_GIT_COMMITS ?? 5000);
export const BENCH_FILES = 10_000;
export const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };

export function git(cwd: string, args: string[], input?: string) {
  const r = spawnSync('git', args, { cwd, env: GIT_ENV, input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.toString();
}

/** Creates the bare repository `source` (branch `main`). */
export function generateRepository(work: string, source: string, commits = BENCH_COMMITS, files = BENCH_FILES) {
  git(work, ['init', '-q', '--bare', '-b', 'main', source]);
  git(source, ['config', 'http.receivepack', 'true']);
  const lines: string[] = [];
  const file = (i: number) => `d${String(Math.floor(i / 100)).padStart(3, '0')}/f${String(i % 100).padStart(2, '0')}.txt`;
  const content = (i: number, rev: number) => `file ${i} revision ${rev}\n${'lorem ipsum dolor sit amet\n'.repeat(8)}`;
  const blob = (data: string) => `data ${Buffer.byteLength(data)}\n${data}\n`;
  for (let c = 0; c < commits; c++) {
    const time = 1_600_000_000 + c * 60;
    lines.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${time} +0000\n${blob(`commit ${c}`)}`);
    if (c === 0) for (let i = 0; i < files; i++) lines.push(`M 100644 inline ${file(i)}\n${blob(content(i, 0))}`);
    else for (const i of [(c * 7919) % files, (c * 104729) % files]) lines.push(`M 100644 inline ${file(i)}\n${blob(content(i, c))}`);
  }
  git(source, ['fast-import', '--quiet'], lines.join(''));
  git(source, ['gc', '-q']);
}
