// `npm run build` (after `wrangler deploy --dry-run --outdir dist --minify`): prints the Worker bundle's raw and
// gzip size and fails above the project's budget (Cloudflare's own limits are 3 MB gzip free / 10 MB paid).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_KIB = 350;
const name = process.argv[2] ?? 'dist/index.js';
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
if (gzip > BUDGET_GZIP_KIB * 1024) {
  console.error(`bundle-size: over budget by ${kib(gzip - BUDGET_GZIP_KIB * 1024)} gzip`);
  process.exit(1);
}
