import { defineConfig } from 'vitest/config';

// Projects: `node` is the in-process suite (`npm test`; TEST_DB=postgres runs it on PostgreSQL through the Neon
// drivers), `workers` runs the bundled Worker in workerd (tests/workers/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/{unit,api,oauth,web,contract}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/helpers/global-setup.ts'],
          setupFiles: ['./tests/helpers/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './tests/workers/vitest.config.ts',
    ],
  },
});
