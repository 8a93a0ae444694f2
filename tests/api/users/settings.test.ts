// Every parameter GitLab 13.6 declares for POST/PUT /users (lib/api/users.rb's optional_attributes, CE and EE, and
// each route's own) is declared, set to a value other than its default, and read back as an administrator reads it.
// The tables are the check: a parameter the route declares but the tables miss (or the reverse) fails the first test.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { declaredParamsByRoute, expectReadBack, sentValues, type ReadBackCase } from '../../helpers/declared-params.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const PREMIUM = { INSTANCE_TIER: 'premium' as const };

const ATTRIBUTES = (): Record<string, ReadBackCase> => ({
  skype: { send: 'skype.handle' },
  linkedin: { send: 'linkedin-handle' },
  twitter: { send: 'twitter_handle' },
  website_url: { send: 'https://example.com' },
  organization: { send: 'Example' },
  job_title: { send: 'Engineer' },
  projects_limit: { send: 7 },
  extern_uid: { elsewhere: 'tests/api/users/identities.test.ts' },
  provider: { elsewhere: 'tests/api/users/identities.test.ts' },
  bio: { send: 'About me' },
  location: { send: 'Lisbon' },
  public_email: { elsewhere: 'tests/api/users (public_email must be an email the user owns)' },
  admin: { send: true, read: ['is_admin', true] },
  can_create_group: { send: false },
  external: { elsewhere: 'tests/api/users (external users lose group and project creation)' },
  avatar: { elsewhere: 'tests/api/uploads/avatars.test.ts' },
  theme_id: { send: 11 },
  color_scheme_id: { send: 5 },
  private_profile: { send: true },
  note: { send: 'Spoke to them on support' },
  // EE
  shared_runners_minutes_limit: { send: 1000 },
  extra_shared_runners_minutes_limit: { send: 50 },
});
const POST_ONLY = (): Record<string, ReadBackCase> => ({
  email: { elsewhere: 'tests/api/users/create.test.ts' },
  password: { elsewhere: 'tests/api/users/create.test.ts' },
  reset_password: { elsewhere: 'tests/api/users/create.test.ts' },
  skip_confirmation: { elsewhere: 'tests/api/users/create.test.ts' },
  name: { elsewhere: 'tests/api/users/create.test.ts' },
  username: { elsewhere: 'tests/api/users/create.test.ts' },
  force_random_password: { elsewhere: 'tests/api/users/create.test.ts' },
  confirm: { elsewhere: 'tests/api/users/create.test.ts' },
});
const PUT_ONLY = (): Record<string, ReadBackCase> => ({
  email: { elsewhere: 'tests/api/users/update-delete.test.ts' },
  password: { elsewhere: 'tests/api/users/update-delete.test.ts' },
  skip_reconfirmation: { elsewhere: 'tests/api/users/update-delete.test.ts' },
  name: { elsewhere: 'tests/api/users/update-delete.test.ts' },
  username: { elsewhere: 'tests/api/users/update-delete.test.ts' },
});

describe('user attributes: every 13.6 parameter applied', () => {
  it('POST /users and PUT /users/:id declare exactly the parameters these tables cover', async () => {
    const declared = await declaredParamsByRoute();
    expect(new Set(declared.get('POST /users')!.params)).toEqual(new Set(Object.keys({ ...ATTRIBUTES(), ...POST_ONLY() })));
    expect(new Set(declared.get('PUT /users/:id{[0-9]+}')!.params)).toEqual(new Set(Object.keys({ ...ATTRIBUTES(), ...PUT_ONLY() })));
  });

  it('PUT and POST set every attribute; GET reads each back', async () => {
    const { token } = await createAdmin();
    const cases = ATTRIBUTES();
    const { user } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, body: sentValues(cases), env: PREMIUM });
    expect(res.status, res.text).toBe(200);
    expectReadBack(res.body, cases);
    expectReadBack((await api.get(`/users/${user.id}`, { token, env: PREMIUM })).body, cases);
    const name = unique('u');
    const created = await api.post('/users', {
      token,
      body: { email: `${name}@example.com`, username: name, name, password: 'long-enough-1', ...sentValues(cases) },
      env: PREMIUM,
    });
    expect(created.status, created.text).toBe(201);
    expectReadBack(created.body, cases);
  });

  it('skype, linkedin and twitter are public profile fields; the note is for administrators', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    await api.put(`/users/${user.id}`, { token, body: { skype: 's', linkedin: 'l', twitter: 't', note: 'n' } });
    const seen = (await api.get(`/users/${user.id}`, { token: (await createUser()).token })).body;
    expect(seen).toMatchObject({ skype: 's', linkedin: 'l', twitter: 't' });
    expect(seen).not.toHaveProperty('note');
  });

  it.each([
    [{ theme_id: 12 }, { theme_id: ['is not included in the list'] }],
    [{ color_scheme_id: 0 }, { color_scheme_id: ['is not included in the list'] }],
    [{ shared_runners_minutes_limit: -1 }, { shared_runners_minutes_limit: ['must be greater than or equal to 0'] }],
    [{ twitter: 'x'.repeat(501) }, { twitter: ['is too long (maximum is 500 characters)'] }],
  ])('%j is refused with the model error; nothing is stored', async (body, errors) => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, body: { ...body, bio: 'not stored' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: errors });
    expect((await api.get(`/users/${user.id}`, { token })).body.bio).toBe('');
  });
});
