// Concurrent writes to one feature for different actors never lose a gate (one statement per write: the feature row
// is upserted and each gate inserted with ON CONFLICT DO NOTHING). Runs on PGlite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { listedFeature } from './helpers.ts';

describe('concurrent POST /features/:name', () => {
  it('20 different users of one (new) feature at once: all 20 actors are there afterwards', async () => {
    const { token } = await createAdmin();
    await api.get('/user', { token });
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser().then((u) => u.user)));
    const name = unique('race_');
    const results = await Promise.all(users.map((u) => api.post(`/features/${name}`, { token, form: { value: 'true', user: u.username } })));
    for (const res of results) expect(res.status, res.text).toBe(201);
    const listed = await listedFeature(token, name);
    expect(listed.state).toBe('conditional');
    const actors = listed.gates.find((g: any) => g.key === 'actors').value as string[];
    expect([...actors].sort()).toEqual(users.map((u) => `User:${u.id}`).sort());

    // And removing them concurrently leaves none.
    const removed = await Promise.all(users.map((u) => api.post(`/features/${name}`, { token, form: { value: 'false', user: u.username } })));
    for (const res of removed) expect(res.status).toBe(201);
    const after = await listedFeature(token, name);
    expect(after).toEqual({ name, state: 'off', gates: [{ key: 'boolean', value: false }] });
  });
});
