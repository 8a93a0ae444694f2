// Features API (GitLab lib/api/features.rb with Admin::SetFeatureFlagService over Flipper): the entity, the state
// table of the spec, the example responses of reference §1.6, every 400 (and that a rejected call changed nothing),
// DELETE, definitions, and the query budget read from Server-Timing.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, queryCount } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { listedFeature } from './helpers.ts';

let admin: string;
beforeAll(async () => {
  admin = (await createAdmin()).token;
  await api.get('/user', { token: admin }); // first use records last_used_at (a query of its own)
});

const flag = () => unique('flag_');
const set = (name: string, params: Record<string, string>, as: 'form' | 'body' | 'query' = 'form') =>
  api.post(`/features/${name}`, { token: admin, [as]: params });
const listed = (name: string) => listedFeature(admin, name);
const off = (name: string) => ({ name, state: 'off', gates: [{ key: 'boolean', value: false }] });

describe('state table (spec "States and transitions")', () => {
  it('feature does not exist + integer value, no key -> conditional, created with boolean false and percentage_of_time', async () => {
    const name = flag();
    expect(await listed(name)).toBeUndefined();
    const res = await set(name, { value: '30' });
    expect(res.status, res.text).toBe(201);
    const expected = {
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    };
    expect(res.body).toEqual(expected);
    expect(await listed(name)).toEqual(expected);
  });

  it('any feature + key=percentage_of_actors, integer value -> conditional with percentage_of_actors', async () => {
    for (const before of [null, { value: '20' }, { value: 'true', feature_group: 'admins' }] as (Record<string, string> | null)[]) {
      const name = flag();
      if (before) expect((await set(name, before)).status).toBe(201);
      const res = await set(name, { value: '50', key: 'percentage_of_actors' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.state).toBe('conditional');
      expect(res.body.gates[0]).toEqual({ key: 'boolean', value: false });
      expect(res.body.gates).toContainEqual({ key: 'percentage_of_actors', value: 50 });
    }
  });

  it('DELETE: 204 and the same response whether or not the feature exists', async () => {
    const name = flag();
    await set(name, { value: 'true' });
    const first = await api.delete(`/features/${name}`, { token: admin });
    const second = await api.delete(`/features/${name}`, { token: admin });
    const never = await api.delete(`/features/${flag()}`, { token: admin });
    for (const res of [first, second, never]) {
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    expect(await listed(name)).toBeUndefined();
  });
});

describe('example responses (reference §1.6)', () => {
  let user: { id: number; username: string };
  beforeAll(async () => {
    user = (await createUser()).user;
  });

  it('value=true -> on, boolean true', async () => {
    const name = flag();
    const res = await set(name, { value: 'true' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
  });

  it('value=100 enables (boolean true), as the current service does', async () => {
    const name = flag();
    expect((await set(name, { value: '100' })).body).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
  });

  it('value=true&feature_group=admins -> conditional, boolean false + groups', async () => {
    const name = flag();
    const res = await set(name, { value: 'true', feature_group: 'admins' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'groups', value: ['admins'] },
      ],
    });
  });

  it('value=true&user=<username> -> boolean false + actors User:<id> (username without regard to case)', async () => {
    const name = flag();
    const res = await set(name, { value: 'true', user: user.username.toUpperCase() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'actors', value: [`User:${user.id}`] },
      ],
    });
  });

  it('value=true&user=..&feature_group=admins -> boolean false, groups, actors (in that order)', async () => {
    const name = flag();
    const res = await set(name, { value: 'true', user: user.username, feature_group: 'admins' });
    expect(res.body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'groups', value: ['admins'] },
        { key: 'actors', value: [`User:${user.id}`] },
      ],
    });
  });

  it('value=50 -> conditional, percentage_of_time 50', async () => {
    const name = flag();
    expect((await set(name, { value: '50' })).body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 50 },
      ],
    });
  });

  it('value=50&key=percentage_of_actors -> percentage_of_actors 50', async () => {
    const name = flag();
    expect((await set(name, { value: '50', key: 'percentage_of_actors' })).body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 50 },
      ],
    });
  });

  it('value=false on an enabled flag (globally, or with the same group/user) -> off, boolean false', async () => {
    const global = flag();
    await set(global, { value: 'true' });
    expect((await set(global, { value: 'false' })).body).toEqual(off(global));

    const byGroup = flag();
    await set(byGroup, { value: 'true', feature_group: 'admins' });
    expect((await set(byGroup, { value: 'false', feature_group: 'admins' })).body).toEqual(off(byGroup));

    const byUser = flag();
    await set(byUser, { value: 'true', user: user.username });
    expect((await set(byUser, { value: 'false', user: user.username })).body).toEqual(off(byUser));
    // The feature stays persisted, off.
    expect(await listed(byUser)).toEqual(off(byUser));
  });

  it('existing 50% + value=30 -> percentage_of_time 30', async () => {
    const name = flag();
    await set(name, { value: '50' });
    expect((await set(name, { value: '30' })).body).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
  });
});

describe('Flipper semantics', () => {
  it('enabling globally clears every other gate; disabling globally clears them all (the row stays)', async () => {
    const { user } = await createUser();
    const name = flag();
    await set(name, { value: 'true', user: user.username, feature_group: 'admins' });
    await set(name, { value: '40' });
    const all = await set(name, { value: '10', key: 'percentage_of_actors' });
    expect(all.body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'groups', value: ['admins'] },
      { key: 'actors', value: [`User:${user.id}`] },
      { key: 'percentage_of_actors', value: 10 },
      { key: 'percentage_of_time', value: 40 },
    ]);
    expect((await set(name, { value: 'true' })).body).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect(await listed(name)).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
    await set(name, { value: 'true', user: user.username });
    expect((await set(name, { value: '0' })).body).toEqual(off(name));
    expect(await listed(name)).toEqual(off(name));
  });

  it('actors accumulate and are removed one by one; a percentage replaces only its own gate', async () => {
    const [a, b] = [(await createUser()).user, (await createUser()).user];
    const name = flag();
    await set(name, { value: 'true', user: a.username });
    await set(name, { value: '25' });
    await set(name, { value: 'true', user: b.username });
    await set(name, { value: 'true', user: a.username }); // already there: unchanged
    expect((await listed(name)).gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`User:${a.id}`, `User:${b.id}`] },
      { key: 'percentage_of_time', value: 25 },
    ]);
    const removed = await set(name, { value: 'false', user: a.username });
    expect(removed.body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`User:${b.id}`] },
      { key: 'percentage_of_time', value: 25 },
    ]);
    expect((await set(name, { value: '75', key: 'percentage_of_time' })).body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`User:${b.id}`] },
      { key: 'percentage_of_time', value: 75 },
    ]);
    // Disabling an actor that is not there is harmless (and creates nothing new).
    expect((await set(name, { value: 'false', user: a.username })).status).toBe(201);
    expect((await listed(name)).gates).toHaveLength(3);
  });

  it('comma-separated lists: users, groups (Group:<id>) and projects (Project:<id>) by full path, empty entries ignored', async () => {
    const owner = await createUser();
    const other = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token);
    const name = flag();
    const res = await set(name, {
      value: 'true',
      user: `${owner.user.username},,${other.user.username},`,
      group: group.full_path.toUpperCase(),
      project: project.path_with_namespace,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`User:${owner.user.id}`, `User:${other.user.id}`, `Project:${project.id}`, `Group:${group.id}`] },
    ]);
    const disabled = await set(name, { value: 'false', user: other.user.username, group: group.full_path });
    expect(disabled.body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`User:${owner.user.id}`, `Project:${project.id}`] },
    ]);
  });

  it('parameters as form fields, JSON (booleans and integers too) or the query string', async () => {
    const a = flag();
    expect((await set(a, { value: '20' }, 'query')).body.gates).toContainEqual({ key: 'percentage_of_time', value: 20 });
    const b = flag();
    expect((await api.post(`/features/${b}`, { token: admin, body: { value: 20, key: 'percentage_of_actors' } })).body.gates).toContainEqual({
      key: 'percentage_of_actors',
      value: 20,
    });
    const c = flag();
    expect((await api.post(`/features/${c}`, { token: admin, body: { value: true } })).body).toEqual({
      name: c,
      state: 'on',
      gates: [{ key: 'boolean', value: true }],
    });
    expect((await api.post(`/features/${c}`, { token: admin, body: { value: false } })).body).toEqual(off(c));
  });

  it('percentages 0.0/100.0 disable/enable; 50.0 is 50', async () => {
    const name = flag();
    expect((await set(name, { value: '50.0' })).body.gates).toContainEqual({ key: 'percentage_of_time', value: 50 });
    expect((await set(name, { value: '100.0' })).body.state).toBe('on');
    expect((await set(name, { value: '0.0' })).body).toEqual(off(name));
  });
});

describe('400s: clear errors, and nothing changes', () => {
  let user: { id: number; username: string };
  let name: string;
  let before: unknown;
  beforeAll(async () => {
    user = (await createUser()).user;
    name = flag();
    await set(name, { value: '20', key: 'percentage_of_actors' });
    await set(name, { value: 'true', user: user.username });
    before = await listed(name);
    expect(before).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'actors', value: [`User:${user.id}`] },
        { key: 'percentage_of_actors', value: 20 },
      ],
    });
  });

  const cases: [string, () => Record<string, string>, () => unknown][] = [
    ['missing value', () => ({}), () => ({ error: 'value is missing' })],
    ['key with user', () => ({ value: 'true', key: 'percentage_of_actors', user: user.username }), () => ({ error: 'key, user are mutually exclusive' })],
    [
      'key with feature_group and project',
      () => ({ value: 'true', key: 'percentage_of_time', feature_group: 'admins', project: 'a/b' }),
      () => ({ error: 'key, feature_group are mutually exclusive, key, project are mutually exclusive' }),
    ],
    [
      'missing value and key with group',
      () => ({ key: 'percentage_of_time', group: 'g' }),
      () => ({ error: 'value is missing, key, group are mutually exclusive' }),
    ],
    ['garbage value', () => ({ value: 'wibble' }), () => ({ message: `400 Bad request - Cannot set '${name}' to "wibble"` })],
    [
      'garbage value with an unknown key',
      () => ({ value: 'wibble', key: 'unknown' }),
      () => ({ message: `400 Bad request - Cannot set '${name}' ("unknown") to "wibble"` }),
    ],
    [
      'a percentage with an unknown key',
      () => ({ value: '50', key: 'unknown' }),
      () => ({ message: `400 Bad request - Cannot set '${name}' ("unknown") to "50"` }),
    ],
    [
      'not a percentage (percentage_of_actors)',
      () => ({ value: 'wibble', key: 'percentage_of_actors' }),
      () => ({ message: '400 Bad request - Not a percentage' }),
    ],
    ['not a percentage (percentage_of_time)', () => ({ value: 'abc', key: 'percentage_of_time' }), () => ({ message: '400 Bad request - Not a percentage' })],
    ['a fraction is not a percentage here', () => ({ value: '50.5' }), () => ({ message: `400 Bad request - Cannot set '${name}' to "50.5"` })],
    ['a fraction with percentage_of_actors', () => ({ value: '0.01', key: 'percentage_of_actors' }), () => ({ message: '400 Bad request - Not a percentage' })],
    ['a negative number', () => ({ value: '-5' }), () => ({ message: `400 Bad request - Cannot set '${name}' to "-5"` })],
    [
      'percentage over 100',
      () => ({ value: '101' }),
      () => ({ message: '400 Bad request - value must be a positive number less than or equal to 100, but was 101' }),
    ],
    [
      'percentage of actors over 100',
      () => ({ value: '250', key: 'percentage_of_actors' }),
      () => ({ message: '400 Bad request - value must be a positive number less than or equal to 100, but was 250' }),
    ],
    [
      'a percentage with an actor',
      () => ({ value: '50', user: user.username }),
      () => ({ message: `400 Bad request - Cannot set '${name}' to "50" for User:${user.id}` }),
    ],
    [
      'garbage with a feature group',
      () => ({ value: 'maybe', feature_group: 'admins' }),
      () => ({ message: `400 Bad request - Cannot set '${name}' to "maybe" for admins` }),
    ],
    [
      'an unknown user',
      () => ({ value: 'true', user: `${user.username},inexistent-entry` }),
      () => ({ message: '400 Bad request - inexistent-entry is not found!' }),
    ],
    ['an unknown group', () => ({ value: 'true', group: 'no-such-group/sub' }), () => ({ message: '400 Bad request - no-such-group/sub is not found!' })],
    ['an unknown project', () => ({ value: 'false', project: 'nobody/nothing' }), () => ({ message: '400 Bad request - nobody/nothing is not found!' })],
    ['an unknown feature group', () => ({ value: 'true', feature_group: 'perf_team' }), () => ({ message: '400 Bad request - perf_team is not found!' })],
    ['a NUL byte in a user', () => ({ value: 'true', user: 'a\u0000b' }), () => ({ error: 'user is invalid' })],
    ['a NUL byte in a group', () => ({ value: 'true', group: '\u0000' }), () => ({ error: 'group is invalid' })],
    ['a NUL byte in a project', () => ({ value: 'true', project: 'a/\u0000b' }), () => ({ error: 'project is invalid' })],
    [
      'an actor list over 255 characters',
      () => ({ value: 'true', user: 'u'.repeat(100_000) }),
      () => ({ message: { user: ['is too long (maximum is 255 characters)'] } }),
    ],
    ['a value over 255 characters', () => ({ value: '1'.repeat(400) }), () => ({ message: { value: ['is too long (maximum is 255 characters)'] } })],
    ['garbage with an empty actor list', () => ({ value: 'garbage', user: ',' }), () => ({ message: `400 Bad request - Cannot set '${name}' to "garbage"` })],
  ];
  for (const [title, params, body] of cases) {
    it(`${title}: 400, nothing changed`, async () => {
      const res = await set(name, params());
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(body());
      expect(await listed(name)).toEqual(before);
    });
  }

  it('an unknown actor creates nothing either', async () => {
    const fresh = flag();
    expect((await set(fresh, { value: 'true', user: 'inexistent-entry' })).status).toBe(400);
    expect(await listed(fresh)).toBeUndefined();
  });

  it('leading zeros are numbers: 0100 enables, 00 disables, 050 is 50', async () => {
    const f = flag();
    expect((await set(f, { value: '050' })).body).toEqual({
      name: f,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 50 },
      ],
    });
    expect((await set(f, { value: '0100' })).body).toEqual({ name: f, state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect((await set(f, { value: '00' })).body).toEqual(off(f));
  });

  it('100 with key=percentage_of_actors enables the flag outright (GitLab: 100 means on)', async () => {
    const f = flag();
    expect((await set(f, { value: '100', key: 'percentage_of_actors' })).body).toEqual({ name: f, state: 'on', gates: [{ key: 'boolean', value: true }] });
  });

  it('out of range on a fully-enabled flag is the range error', async () => {
    const on = flag();
    await set(on, { value: 'true' });
    expect((await set(on, { value: '101' })).body).toEqual({
      message: '400 Bad request - value must be a positive number less than or equal to 100, but was 101',
    });
  });

  it('DELETE of a name no flag can have: 204, nothing queried beyond auth', async () => {
    for (const bad of ['a%00b', 'Upper', 'x'.repeat(300)]) {
      const res = await api.delete(`/features/${bad}`, { token: admin });
      expect(res.status, bad).toBe(204);
      expect(queryCount(res)).toBeLessThanOrEqual(1);
    }
  });

  it('a percentage on a fully-enabled flag', async () => {
    const on = flag();
    await set(on, { value: 'true' });
    const time = await set(on, { value: '50' });
    expect(time.status).toBe(400);
    expect(time.body).toEqual({ message: '400 Bad request - Cannot enable percentage of time for a fully-enabled flag' });
    const actors = await set(on, { value: '50', key: 'percentage_of_actors' });
    expect(actors.body).toEqual({ message: '400 Bad request - Cannot enable percentage of actors for a fully-enabled flag' });
    expect(await listed(on)).toEqual({ name: on, state: 'on', gates: [{ key: 'boolean', value: true }] });
  });

  it('invalid flag names', async () => {
    for (const bad of ['Upper_case', 'with.dot', 'sp%20ace', 'x'.repeat(256)]) {
      const res = await set(bad, { value: 'true' });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toMatch(
        /^400 Bad request - (Provide a name for the feature flag that is \[a-z0-9_-\]|Feature flag name is too long \(maximum is 255 characters\))$/,
      );
    }
    expect((await set('with.dot', { value: 'true' })).body).toEqual({ message: '400 Bad request - Provide a name for the feature flag that is [a-z0-9_-]' });
    expect((await set('x'.repeat(256), { value: 'true' })).body).toEqual({
      message: '400 Bad request - Feature flag name is too long (maximum is 255 characters)',
    });
    const names = ((await api.get('/features', { token: admin })).body as any[]).map((f) => f.name);
    expect(names).not.toContain('Upper_case');
    expect((await set(`ok-${flag()}`, { value: 'true' })).status).toBe(201);
  });
});

describe('GET /features: pagination headers like every list', () => {
  it('pages in creation order with X-Page, X-Per-Page, X-Next-Page and Link', async () => {
    const names = [flag(), flag(), flag()];
    for (const name of names) expect((await set(name, { value: 'true' })).status).toBe(201);
    const first = await api.get('/features', { token: admin, query: { per_page: '1' } });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect([first.headers.get('x-page'), first.headers.get('x-per-page'), first.headers.get('x-next-page')]).toEqual(['1', '1', '2']);
    expect(first.headers.get('link')).toContain('rel="next"');
    const total = Number(first.headers.get('x-total'));
    const last = await api.get('/features', { token: admin, query: { per_page: '1', page: String(total) } });
    expect(last.body).toEqual([{ name: names[2], state: 'on', gates: [{ key: 'boolean', value: true }] }]);
    expect(last.headers.get('x-next-page')).toBe('');
    expect((await api.get('/features', { token: admin, query: { per_page: '0' } })).status).toBe(400);
  });
});

describe('GET /features/definitions', () => {
  it('lists the definitions with their defaults', async () => {
    const res = await api.get('/features/definitions', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        {
          name: 'oauth_implicit_grant',
          introduced_by_url: null,
          rollout_issue_url: null,
          milestone: null,
          log_state_changes: null,
          type: 'ops',
          group: null,
          default_enabled: true,
          description: expect.any(String),
        },
        expect.objectContaining({ name: 'oauth_password_grant', default_enabled: true, type: 'ops' }),
      ]),
    );
  });
});

describe('query budget (Server-Timing)', () => {
  it('GET <= 2, POST/DELETE <= 4', async () => {
    const { user } = await createUser();
    const name = flag();
    const counts: Record<string, number> = {};
    const measure = async (label: string, p: Promise<any>, status: number) => {
      const res = await p;
      expect(res.status, `${label}: ${res.text}`).toBe(status);
      counts[label] = queryCount(res);
    };
    await measure('POST value=true&user', set(name, { value: 'true', user: user.username }), 201);
    await measure('POST value=30', set(name, { value: '30' }), 201);
    await measure('POST value=true', set(name, { value: 'true' }), 201);
    await measure('POST value=false', set(name, { value: 'false' }), 201);
    await measure('POST unknown user (400)', set(name, { value: 'true', user: 'inexistent-entry' }), 400);
    await measure('POST value=40&key=percentage_of_actors', set(name, { value: '40', key: 'percentage_of_actors' }), 201);
    await measure('GET /features', api.get('/features', { token: admin }), 200);
    await measure('GET /features past the last page', api.get('/features', { token: admin, query: { page: '100000' } }), 200);
    await measure('GET /features/definitions', api.get('/features/definitions', { token: admin }), 200);
    await measure('DELETE', api.delete(`/features/${name}`, { token: admin }), 204);
    console.log('features query counts:', JSON.stringify(counts));
    for (const [label, n] of Object.entries(counts)) expect(n, label).toBeLessThanOrEqual(label.startsWith('GET') ? 2 : 4);
  });
});
