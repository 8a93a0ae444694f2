// The cron handler inside workerd: `scheduled()` purges deleted groups (with subgroups and their projects) and
// deleted projects, and removes expired memberships, through the Neon WebSocket Pool (a transaction) and HTTP.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { neonProvider } from '../../db/client.ts';
import worker from '../../functions/index.ts';
import type { Env } from '../../functions/env.ts';

const info = inject('workers');
const { db } = neonProvider({ url: info.url, wsProxy: info.wsProxy, httpEndpoint: info.httpEndpoint }).open({ queries: 0, ms: 0 }, () => undefined);

const one = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows[0]!;
const suffix = () => Math.random().toString(36).slice(2, 8);

async function group(path: string, parent?: { id: number; traversal_ids: number[] }, deleted = false) {
  const row = await one<{ id: number }>(sql`
    INSERT INTO namespaces (kind, name, path, full_path, parent_id, deleted_at)
    VALUES ('group', ${path}, ${path}, ${path}, ${parent?.id ?? null}, ${deleted ? sql`now() - interval '1 minute'` : null}) RETURNING id`);
  const traversal = [...(parent?.traversal_ids ?? []), row.id];
  await db.execute(sql`UPDATE namespaces SET traversal_ids = ${`{${traversal.join(',')}}`}::integer[] WHERE id = ${row.id}`);
  return { id: row.id, traversal_ids: traversal };
}

async function project(namespaceId: number, path: string, deleted = false) {
  const row = await one<{ id: number }>(sql`
    INSERT INTO projects (namespace_id, name, path, path_with_namespace, deleted_at)
    VALUES (${namespaceId}, ${path}, ${path}, ${path}, ${deleted ? sql`now()` : null}) RETURNING id`);
  return row.id;
}

async function member(sourceType: 'Project' | 'Namespace', sourceId: number, expiresAt: string | null = null) {
  const row = await one<{ id: number }>(sql`
    INSERT INTO members (source_type, source_id, user_id, access_level, expires_at)
    VALUES (${sourceType}, ${sourceId}, ${info.user.id}, 30, ${expiresAt}::date) RETURNING id`);
  return row.id;
}

const exists = async (table: 'namespaces' | 'projects' | 'members', id: number) =>
  Number((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE id = ${id}`)).n) === 1;

describe('scheduled() housekeeping', () => {
  it('purges deleted groups, their subgroups and projects, deleted projects, and expired memberships', async () => {
    const s = suffix();
    const doomed = await group(`doomed-${s}`, undefined, true);
    const sub = await group(`doomed-${s}-sub`, doomed);
    const inSub = await project(sub.id, `doomed-${s}-sub-p`);
    const kept = await group(`kept-${s}`);
    const live = await project(kept.id, `kept-${s}-live`);
    const other = await project(kept.id, `kept-${s}-other`);
    const deletedProject = await project(kept.id, `kept-${s}-gone`, true);
    const members = {
      ofDoomed: await member('Namespace', doomed.id),
      ofInSub: await member('Project', inSub),
      ofDeletedProject: await member('Project', deletedProject),
      expired: await member('Namespace', kept.id, '2020-01-01'),
      expiresToday: await member('Project', live, new Date().toISOString().slice(0, 10)),
      current: await member('Project', other, '2999-01-01'),
    };

    // The Worker's own handler with the bindings from wrangler.toml + the test database (SELF has no scheduled()).
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '*/15 * * * *', scheduledTime: new Date() }), env as Env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await exists('namespaces', doomed.id)).toBe(false);
    expect(await exists('namespaces', sub.id)).toBe(false);
    expect(await exists('projects', inSub)).toBe(false);
    expect(await exists('projects', deletedProject)).toBe(false);
    expect(await exists('namespaces', kept.id)).toBe(true);
    expect(await exists('projects', live)).toBe(true);
    expect(await exists('members', members.ofDoomed)).toBe(false);
    expect(await exists('members', members.ofInSub)).toBe(false);
    expect(await exists('members', members.ofDeletedProject)).toBe(false);
    expect(await exists('members', members.expired)).toBe(false);
    expect(await exists('members', members.expiresToday)).toBe(false);
    expect(await exists('members', members.current)).toBe(true);
  });
});
