// Retention: events older than 2 years are deleted in bounded batches by the housekeeping job; idempotent, and two
// concurrent runs neither fail nor delete anything twice. Also: group events (no project) need group read.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { insertTestEvent } from '../../factories/events.ts';
import { rows } from '../../../db/queries/lib/raw.ts';
import { expireOldEvents } from '../../../functions/housekeeping/service.ts';
import { api, testDb } from '../../helpers/app.ts';

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const remaining = async (ids: number[]) => {
  const found = await rows<{ id: unknown }>(
    testDb().db,
    sql`SELECT id FROM events WHERE id IN (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
  return found.map((r) => Number(r.id)).sort((a, b) => a - b);
};

describe('event retention', () => {
  it('deletes events older than 2 years in batches, keeps younger ones, and is idempotent', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token);
    const old: number[] = [];
    for (let i = 0; i < 7; i++) old.push(await insertTestEvent({ authorId: user.id, projectId: p.id, action: 'joined', createdAt: daysAgo(2 * 366 + i) }));
    const young = await insertTestEvent({ authorId: user.id, projectId: p.id, action: 'left', createdAt: daysAgo(2 * 365 - 2) });
    // (Counts are not asserted exactly: on PostgreSQL other test files share the database and run the job too.)
    await expireOldEvents({ ctx: testDb() }, 3);
    expect(await remaining([...old, young])).toEqual([young]);
    await expireOldEvents({ ctx: testDb() }, 3);
    // The job's own run (cronjob:prune_old_events: the default batch).
    expect(await expireOldEvents({ ctx: testDb() })).toBeGreaterThanOrEqual(0);
    expect(await remaining([...old, young])).toEqual([young]);
  });

  it('two concurrent runs delete each old event once and both finish', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token);
    const old: number[] = [];
    for (let i = 0; i < 20; i++) old.push(await insertTestEvent({ authorId: user.id, projectId: p.id, action: 'joined', createdAt: daysAgo(800 + i) }));
    const [a, b] = await Promise.all([expireOldEvents({ ctx: testDb() }, 4), expireOldEvents({ ctx: testDb() }, 4)]);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeGreaterThanOrEqual(0);
    expect(await remaining(old)).toEqual([]);
  });
});

describe('group events (no project)', () => {
  it('need group read: listed for members, hidden (not counted) for others', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const g = await createGroup(owner.token);
    const e = await insertTestEvent({ authorId: owner.user.id, groupId: g.id, action: 'joined' });
    const mine = await api.get(`/users/${owner.user.id}/events`, { token: owner.token });
    expect(mine.body.map((x: any) => x.id)).toContain(e);
    expect(mine.body.find((x: any) => x.id === e)).toMatchObject({ project_id: null, action_name: 'joined' });
    const theirs = await api.get(`/users/${owner.user.id}/events`, { token: stranger.token });
    expect(theirs.body.map((x: any) => x.id)).not.toContain(e);
    expect(theirs.headers.get('x-total')).toBe('0');
  });
});
