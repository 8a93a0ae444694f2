// The `workers` project (`npm run test:workers`): the real Worker (wrangler.toml, functions/index.ts) runs in
// workerd and reaches a fresh PostgreSQL database through the production Neon drivers, via the local stand-ins for
// Neon's WebSocket and HTTP endpoints that global-setup.ts starts (in Node, before workerd).
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineProject({
  plugins: [
    cloudflareTest(({ inject }) => {
      const db = inject('workers');
      return {
        wrangler: { configPath: here('../../wrangler.toml') },
        miniflare: {
          bindings: {
            DATABASE_URL: db.url,
            NEON_WS_PROXY: db.wsProxy,
            NEON_HTTP_ENDPOINT: db.httpEndpoint,
            PUBLIC_URL: 'https://gitlab.example.test',
            // The test-only key of tests/helpers/app.ts: runner registration tokens are derived from it.
            ENCRYPTION_KEY: 'dGVzdC1vbmx5LWtleS0wMTIzNDU2Nzg5YWJjZGVmMDE=',
          },
        },
      };
    }),
  ],
  test: {
    name: 'workers',
    root: here('.'),
    include: ['**/*.test.ts'],
    globalSetup: [here('./global-setup.ts')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
