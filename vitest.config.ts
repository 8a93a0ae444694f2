import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// Projects: `node` is the in-process suite (`npm test`; TEST_DB=postgres runs it on PostgreSQL through the Neon
// drivers); `node-instance` holds the tests that flip instance-wide switches (feature flags that turn OAuth flows
// off), in a database of their own (each project's globalSetup makes one) so no concurrently running test sees a
// flow switched off; `workers` runs the bundled Worker in workerd (tests/workers/vitest.config.ts).
const INSTANCE_WIDE = ['tests/api/features/switches.test.ts'];
// One graphql module: vite would resolve our sources' `graphql` to its ESM build while graphql-yoga (run by Node) gets
// the CommonJS one, and graphql-js refuses objects from "another module or realm".
const resolve = { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] };
const nodeProject = {
  environment: 'node' as const,
  globalSetup: ['./tests/helpers/global-setup.ts'],
  setupFiles: ['./tests/helpers/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      { resolve, test: { ...nodeProject, name: 'node', include: ['tests/{unit,api,oauth,graphql,web,contract,repositories}/**/*.test.ts'], exclude: INSTANCE_WIDE } },
      { resolve, test: { ...nodeProject, name: 'node-instance', include: INSTANCE_WIDE } },
      './tests/workers/vitest.config.ts',
    ],
  },
});
