// isFeatureEnabled(ctx, name, actor) over flags set through the API: boolean, actors (users, projects, groups),
// the admins feature group, percentage of actors (stable per actor, Flipper's CRC32 bucketing), percentage of time,
// definitions' defaults for flags never set; gate values are read once per request (ctx.memo).
import { crc32 as zlibCrc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { areFeaturesEnabled, isFeatureEnabled } from '../../../functions/features/evaluate.ts';
import { userActor, type FeatureActor } from '../../../functions/features/groups.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createRequestContextForTest } from './helpers.ts';

let admin: string;
beforeAll(async () => {
  admin = (await createAdmin()).token;
});
const set = async (name: string, form: Record<string, string>) => {
  const res = await api.post(`/features/${name}`, { token: admin, form });
  expect(res.status, res.text).toBe(201);
};
const flag = () => unique('eval_');

describe('isFeatureEnabled', () => {
  it('boolean: on for everyone, with or without an actor; off after disabling', async () => {
    const name = flag();
    await set(name, { value: 'true' });
    expect(await isFeatureEnabled(createRequestContextForTest(), name)).toBe(true);
    expect(await isFeatureEnabled(createRequestContextForTest(), name, { type: 'Project', id: 1 })).toBe(true);
    await set(name, { value: 'false' });
    expect(await isFeatureEnabled(createRequestContextForTest(), name)).toBe(false);
  });

  it('actors: the users, projects and groups it was enabled for', async () => {
    const [a, b] = [await createUser(), await createUser()];
    const name = flag();
    await set(name, { value: 'true', user: a.user.username });
    const ctx = createRequestContextForTest();
    expect(await isFeatureEnabled(ctx, name, userActor(a.user))).toBe(true);
    expect(await isFeatureEnabled(ctx, name, userActor(b.user))).toBe(false);
    expect(await isFeatureEnabled(ctx, name)).toBe(false);
    expect(await isFeatureEnabled(ctx, name, { type: 'Group', id: a.user.id })).toBe(false);
  });

  it('the admins feature group: administrators only', async () => {
    const name = flag();
    await set(name, { value: 'true', feature_group: 'admins' });
    const ctx = createRequestContextForTest();
    expect(await isFeatureEnabled(ctx, name, userActor((await createAdmin()).user))).toBe(true);
    expect(await isFeatureEnabled(ctx, name, userActor((await createUser()).user))).toBe(false);
    expect(await isFeatureEnabled(ctx, name)).toBe(false);
  });

  it("percentage of actors: Flipper's bucket (crc32(name + flipper id) % 100000 < pct * 1000), stable per actor", async () => {
    const name = flag();
    await set(name, { value: '40', key: 'percentage_of_actors' });
    let inside = 0;
    for (let id = 1; id <= 300; id++) {
      const actor: FeatureActor = { type: 'User', id, admin: false };
      const expected = zlibCrc32(`${name}User:${id}`) % 100_000 < 40_000;
      const answers = [await isFeatureEnabled(createRequestContextForTest(), name, actor), await isFeatureEnabled(createRequestContextForTest(), name, actor)];
      expect(answers).toEqual([expected, expected]);
      if (expected) inside++;
    }
    expect(inside).toBeGreaterThan(60);
    expect(inside).toBeLessThan(180);
    expect(await isFeatureEnabled(createRequestContextForTest(), name)).toBe(false);
  });

  it('percentage of time: sometimes on, sometimes off', async () => {
    const name = flag();
    await set(name, { value: '50' });
    const ctx = createRequestContextForTest();
    const answers = new Set<boolean>();
    for (let i = 0; i < 200 && answers.size < 2; i++) answers.add(await isFeatureEnabled(ctx, name));
    expect([...answers].sort()).toEqual([false, true]);
  });

  it("never persisted: the definition's default_enabled, false without a definition", async () => {
    const ctx = createRequestContextForTest();
    expect(await isFeatureEnabled(ctx, flag())).toBe(false);
    // (The switches' default_enabled: true is checked in switches.test.ts, which owns their state.)
    expect(await areFeaturesEnabled(createRequestContextForTest(), [flag(), flag()])).toEqual([false, false]);
  });

  it('reads gate values once per request: repeated and batched evaluations cost one query', async () => {
    const name = flag();
    await set(name, { value: 'true', feature_group: 'admins' });
    const ctx = createRequestContextForTest();
    for (let i = 0; i < 5; i++) await isFeatureEnabled(ctx, name, { type: 'User', id: i, admin: i % 2 === 0 });
    expect(ctx.executed()).toBe(1);
    const batch = createRequestContextForTest();
    await areFeaturesEnabled(batch, [name, 'oauth_password_grant', flag()]);
    await isFeatureEnabled(batch, 'oauth_password_grant');
    expect(batch.executed()).toBe(1);
  });
});
