import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Projects: `unit` is pure code with no database and no app (tests/unit: nothing to set up); `node` is the in-process suite (`npm test`; TEST_DB=postgres runs it on PostgreSQL through the Neon
// drivers); `node-instance` holds the tests that flip instance-wide switches (feature flags that turn OAuth flows
// off), in a database of their own (each project's globalSetup makes one) so no concurrently running test sees a
// flow switched off; `workers` runs the bundled Worker in workerd (tests/workers/vitest.config.ts).
const INSTANCE_WIDE = ['tests/api/features/switches.test.ts'];
// `npm run test:pg` (TEST_DB=postgres) runs what can differ on PostgreSQL: the drivers, concurrency, locking and the
// SQL. These suites test what the database cannot change (pure functions, HTTP shapes, client contracts, browser
// pages, the policy matrix over queries the other suites run there too, parameter parsing), so they run on PGlite
// only (`npm test`). README.md "the two commands" says how the split is decided.
const PGLITE_ONLY = [
  'tests/web/**',
  'tests/contract/**',
  'tests/api/**/authorization.test.ts',
  'tests/repositories/git-authorization.test.ts',
  'tests/api/**/validation.test.ts',
  'tests/api/**/booleans.test.ts',
  'tests/api/conventions/{date-params,params-cors,paths,errors,no-store,hostile-input,routes-manifest}.test.ts',
  // `npm start`'s timer on an embedded database of its own, whatever TEST_DB says.
  'tests/api/background-jobs/local-schedule.test.ts',
  // Equivalence with the git command (trees, diffs, merges, archives computed here against git's own output): the
  // algorithms, not the storage; blame (whose walk met a planner PGlite never shows), reading what git writes and
  // git fsck over what we write stay on both.
  'tests/api/repositories/{archive-git,cherry-pick-git,diff-git}.test.ts',
  'tests/repositories/merge-engine-git.test.ts',
  // Data and parsers with no query of their own: templates, CI lint, the GraphQL SDL and its generated types.
  'tests/api/templates/**',
  'tests/api/ci-lint/**',
  'tests/graphql/{spec-coverage,codegen,explorer,sast-build-actions}.test.ts',
];
const onPostgres = process.env.TEST_DB === 'postgres';
// One graphql module: vite would resolve our sources' `graphql` to its ESM build while graphql-yoga (run by Node) gets
// the CommonJS one, and graphql-js refuses objects from "another module or realm".
const resolve = { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] };
// Test files share their worker (README.md "Tests"): no fresh module graph per file (`isolate: false`), one database
// per worker that every file of it uses (tests/helpers/setup.ts), spies and stubs undone after each test. A file that
// needs a database of its own says so (`useOwnDatabase`, tests/helpers/app.ts).
const shared = {
  environment: 'node' as const,
  isolate: false,
  restoreMocks: true,
  unstubGlobals: true,
  unstubEnvs: true,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
const nodeProject = { ...shared, globalSetup: ['./tests/helpers/global-setup.ts'], setupFiles: ['./tests/helpers/setup.ts'] };
// Every core runs a worker (vitest's default leaves one idle). On PostgreSQL the database works in its own processes
// while a worker waits on it, so twice as many workers keep both cores busy.
const cores = availableParallelism();

export default defineConfig({
  test: {
    maxWorkers: onPostgres ? cores * 2 : cores,
    projects: [
      { resolve, test: { ...shared, name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        resolve,
        test: {
          ...nodeProject,
          name: 'node',
          include: ['tests/{api,oauth,graphql,web,contract,repositories}/**/*.test.ts'],
          exclude: onPostgres ? [...INSTANCE_WIDE, ...PGLITE_ONLY] : INSTANCE_WIDE,
        },
      },
      { resolve, test: { ...nodeProject, name: 'node-instance', include: INSTANCE_WIDE } },
      './tests/workers/vitest.config.ts',
    ],
  },
});
