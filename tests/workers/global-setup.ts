// Runs in Node before workerd starts: a fresh PostgreSQL database behind the Neon stand-ins, and one user with a
// personal access token (rows written with `pg`, the Worker is what is under test). Provided to the config
// (bindings) and to the tests (`inject('workers')`).
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as PgTypes from 'pg';
import type { TestProject } from 'vitest/node';
import { startPostgresTestDatabase } from '../helpers/postgres.ts';

// `pg` through require: this project resolves packages with workerd conditions.
const pg = createRequire(import.meta.url)('pg') as typeof PgTypes;

export interface WorkersTestContext {
  url: string;
  wsProxy: string;
  httpEndpoint: string;
  token: string;
  user: { id: number; username: string };
}

/** A user with an `api` personal access token, written with `pg` (also used by bench:git:workerd). */
export async function createUserWithToken(url: string) {
  const username = `worker${randomBytes(4).toString('hex')}`;
  const token = `glpat-${randomBytes(32).toString('base64url')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: number }>(`INSERT INTO users (username, name, email, confirmed_at) VALUES ($1, $2, $3, now()) RETURNING id`, [
      username,
      `Worker ${username}`,
      `${username}@example.com`,
    ]);
    const id = rows[0]!.id;
    await client.query(
      `INSERT INTO namespaces (kind, name, path, full_path, owner_id, visibility_level, traversal_ids)
       VALUES ('user', $1, $2, $2, $3, 20, '{}') `,
      [`Worker ${username}`, username, id],
    );
    await client.query(`UPDATE namespaces SET traversal_ids = ARRAY[id] WHERE owner_id = $1 AND kind = 'user'`, [id]);
    await client.query(`INSERT INTO personal_access_tokens (user_id, name, token_digest, scopes) VALUES ($1, 'workers', $2, '{api}')`, [
      id,
      createHash('sha256').update(token).digest('hex'),
    ]);
    await client.query('COMMIT');
    return { token, user: { id, username } };
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const db = await startPostgresTestDatabase();
  try {
    const { token, user } = await createUserWithToken(db.url);
    project.provide('workers', { url: db.url, wsProxy: db.wsProxy, httpEndpoint: db.httpEndpoint, token, user });
  } catch (error) {
    await db.stop();
    throw error;
  }
  return () => db.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    workers: WorkersTestContext;
  }
}
