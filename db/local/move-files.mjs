// Moves source files and rewrites every relative import of them (and every relative import inside them), so a folder
// can be reorganised in one step: `node db/local/move-files.mjs old.ts=new/path.ts ...` (paths from the repository
// root; a pair `dir/=newdir/` moves every file below dir). It uses `git mv`, then rewrites string literals that are
// relative paths resolving to a file of the repository (imports, `import()`, `vi.mock`, `new URL(..., import.meta.url)`)
// in the .ts/.mjs/.cjs files git tracks. Root-relative mentions (README, DESIGN, configs) are printed for a hand check.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' });
const tracked = git('ls-files').split('\n').filter(Boolean);

const moves = new Map();
for (const arg of process.argv.slice(2)) {
  const [from, to] = arg.split('=');
  if (!from || !to) throw new Error(`not old=new: ${arg}`);
  if (from.endsWith('/')) {
    for (const file of tracked) if (file.startsWith(from)) moves.set(file, to + file.slice(from.length));
  } else {
    if (!tracked.includes(from)) throw new Error(`not tracked: ${from}`);
    moves.set(from, to);
  }
}
const trackedSet = new Set(tracked);
const newPath = (file) => moves.get(file) ?? file;

const SOURCE = /\.(ts|mts|mjs|cjs|js)$/;
const LITERAL = /(['"`])(\.\.?\/[^'"`\n]*)\1/g;

for (const file of tracked.filter((f) => SOURCE.test(f) && existsSync(f))) {
  const text = readFileSync(file, 'utf8');
  const fileNew = newPath(file);
  let changed = false;
  const out = text.replace(LITERAL, (whole, quote, spec) => {
    const [pathPart, suffix = ''] = spec.split(/(?=[?#])/);
    const target = normalize(join(dirname(file), pathPart));
    if (!trackedSet.has(target) && !trackedSet.has(target.replace(/\/$/, ''))) return whole;
    const targetNew = newPath(target);
    if (targetNew === target && fileNew === file) return whole;
    let rel = relative(dirname(fileNew), targetNew);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    if (rel === spec) return whole;
    changed = true;
    return `${quote}${rel}${suffix}${quote}`;
  });
  if (changed) writeFileSync(file, out);
}

for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  git('mv', from, to);
}

// Mentions by root-relative path (docs, configs, comments) are left to a reader: list them.
const mentioned = new Set();
for (const file of git('ls-files').split('\n').filter(Boolean)) {
  if (!existsSync(file) || /package-lock|generated/.test(file)) continue;
  const text = readFileSync(file, 'utf8');
  for (const from of moves.keys()) if (text.includes(from)) mentioned.add(`${file}: ${from}`);
}
for (const line of mentioned) console.log(`mentions an old path: ${line}`);
