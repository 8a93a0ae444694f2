// `npm run routes:manifest`: writes manifest.ts from the domains' Hono apps (every route's method and path, in
// order). tests/api/conventions/routes-manifest.test.ts fails when a domain's routes and the manifest differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { currentManifest, renderManifest } from './manifest-source.ts';

const out = fileURLToPath(new URL('./manifest.ts', import.meta.url));
writeFileSync(out, renderManifest(await currentManifest()));
console.log(`wrote ${out}`);
