// `npm run build` (after `wrangler deploy --dry-run --outdir dist --minify --metafile`): prints the Worker bundle's
// raw and gzip size and its 10 largest inputs (bytes each contributes to the output, from esbuild's metafile
// dist/bundle-meta.json), and fails above the project's budget: 1 MiB gzip (Cloudflare's own limits are 3 MB gzip
// free / 10 MB paid; the real limit is the cold start, checked after this by `tsx tests/bench/startup.ts --check`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_KIB = 1024;
const TOP = 10;
const name = process.argv[2] ?? 'dist/index.js';
const metafile = process.argv[3] ?? 'dist/bundle-meta.json';
const file = resolve(name);

let raw;
try {
  raw = readFileSync(file);
} catch (error) {
  console.error(`bundle-size: cannot read ${file}: ${error.message}`);
  process.exit(1);
}
const gzip = gzipSync(raw, { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(2)} KiB`;
console.log(`bundle ${name}: ${kib(raw.length)} raw, ${kib(gzip)} gzip (budget ${BUDGET_GZIP_KIB} KiB gzip)`);
if (existsSync(metafile)) {
  const meta = JSON.parse(readFileSync(metafile, 'utf8'));
  const output = meta.outputs[name] ?? Object.entries(meta.outputs).find(([out]) => out.endsWith('.js'))?.[1];
  const inputs = Object.entries(output?.inputs ?? {}).sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  console.log(`largest of ${inputs.length} inputs (bytes in the minified output, from ${metafile}):`);
  for (const [input, { bytesInOutput }] of inputs.slice(0, TOP)) {
    console.log(`  ${kib(bytesInOutput).padStart(11)} ${((100 * bytesInOutput) / raw.length).toFixed(1).padStart(5)}%  ${input}`);
  }
} else {
  console.log(`(no ${metafile}: build with --metafile for the largest inputs)`);
}
if (gzip > BUDGET_GZIP_KIB * 1024) {
  console.error(`bundle-size: over budget by ${kib(gzip - BUDGET_GZIP_KIB * 1024)} gzip`);
  process.exit(1);
}
