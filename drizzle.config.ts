import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations from db/schema; `npm run db:migrate` applies them to DATABASE_URL
// through the `pg` driver (drizzle-kit would otherwise pick the Neon driver and hang on a local URL).
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
});
