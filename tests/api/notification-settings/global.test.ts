// GET/PUT /notification_settings: the user's global level, events and notification email.
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emails, notificationSettings, users } from '../../../db/schema/index.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';

async function addEmail(userId: number, verified: boolean) {
  const email = `${unique('second')}@example.org`;
  await testDb()
    .db.insert(emails)
    .values({ userId, email, confirmedAt: verified ? new Date() : null });
  return email;
}

const globalRows = (userId: number) =>
  testDb()
    .db.select()
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), isNull(notificationSettings.projectId), isNull(notificationSettings.namespaceId)));

const storedEmail = async (userId: number) => (await testDb().db.select({ e: users.notificationEmail }).from(users).where(eq(users.id, userId)))[0]!.e;

/** Every spec event except new_epic (a group/project event), in the spec's order, as a custom level shows them. */
const GLOBAL_EVENT_KEYS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
  'moved_project',
];

describe('GET /notification_settings', () => {
  it('defaults to participating and the primary email; nothing is stored', async () => {
    const { user, token } = await createUser();
    const res = await api.get('/notification_settings', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ level: 'participating', notification_email: user.email });
    expect(await globalRows(user.id)).toHaveLength(0);
  });

  it('anonymous: 401', async () => {
    expect(await api.get('/notification_settings')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.put('/notification_settings', { query: { level: 'watch' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('costs at most 2 queries (token + setting)', async () => {
    const { token } = await createUser();
    await api.get('/user', { token }); // first use records last_used_at
    const res = await api.get('/notification_settings', { token });
    expect(res.status).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(2);
  });
});

describe('PUT /notification_settings', () => {
  it('sets the level (query, form or JSON); non-custom levels show no events', async () => {
    const { user, token } = await createUser();
    let res = await api.put('/notification_settings', { token, query: { level: 'watch' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ level: 'watch', notification_email: user.email });
    res = await api.put('/notification_settings', { token, form: { level: 'mention' } });
    expect(res.body).toEqual({ level: 'mention', notification_email: user.email });
    res = await api.put('/notification_settings', { token, body: { level: 'disabled' } });
    expect(res.body).toEqual({ level: 'disabled', notification_email: user.email });
    expect(await api.get('/notification_settings', { token })).toMatchObject({ status: 200, body: { level: 'disabled', notification_email: user.email } });
    expect(await globalRows(user.id)).toHaveLength(1);
  });

  it('custom: every event in the spec order, unset ones false except failed/fixed pipeline; new_epic is not a global event', async () => {
    const { user, token } = await createUser();
    const res = await api.put('/notification_settings', { token, query: { level: 'custom', new_note: 'true', moved_project: 'true' } });
    expect(res.status).toBe(200);
    const events = Object.fromEntries(GLOBAL_EVENT_KEYS.map((k) => [k, ['new_note', 'moved_project', 'failed_pipeline', 'fixed_pipeline'].includes(k)]));
    expect(res.body).toEqual({ level: 'custom', events, notification_email: user.email });
    expect(Object.keys(res.body.events)).toEqual(GLOBAL_EVENT_KEYS);
    expect((await api.get('/notification_settings', { token })).body).toEqual(res.body);

    // Events can be switched off, also the pipeline ones that default to on; a premium instance shows no new_epic here.
    const off = await api.put('/notification_settings', { token, body: { failed_pipeline: false, new_note: false }, env: { INSTANCE_TIER: 'premium' } });
    expect(off.body.events).toMatchObject({ new_note: false, failed_pipeline: false, fixed_pipeline: true, moved_project: true });
    expect(off.body.events).not.toHaveProperty('new_epic');
  });

  it('events given with a non-custom level are stored but not shown until the level is custom', async () => {
    const { token } = await createUser();
    const res = await api.put('/notification_settings', { token, query: { level: 'watch', new_issue: 'yes' } });
    expect(res.body).not.toHaveProperty('events');
    const custom = await api.put('/notification_settings', { token, query: { level: 'custom' } });
    expect(custom.body.events).toMatchObject({ new_issue: true, new_note: false });
  });

  it('notification_email: a verified secondary email or the primary one; empty resets to the primary', async () => {
    const { user, token } = await createUser();
    const second = await addEmail(user.id, true);
    let res = await api.put('/notification_settings', { token, query: { notification_email: second } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ level: 'participating', notification_email: second });
    expect(await storedEmail(user.id)).toBe(second);
    expect((await api.get('/notification_settings', { token })).body).toEqual({ level: 'participating', notification_email: second });
    // Only the email changed: no setting row was needed.
    expect(await globalRows(user.id)).toHaveLength(0);

    res = await api.put('/notification_settings', { token, body: { notification_email: user.email.toUpperCase(), level: 'watch' } });
    expect(res.body).toEqual({ level: 'watch', notification_email: user.email });

    res = await api.put('/notification_settings', { token, form: { notification_email: '' } });
    expect(res.body).toEqual({ level: 'watch', notification_email: user.email });
    expect(await storedEmail(user.id)).toBeNull();
  });

  it('an unverified, foreign or unconfirmed-primary email: 400 model error, and nothing changes (the level given with it either)', async () => {
    const { user, token } = await createUser();
    const other = await createUser();
    const unverified = await addEmail(user.id, false);
    const foreign = await addEmail(other.user.id, true);
    const before = await api.put('/notification_settings', { token, query: { level: 'watch' } });
    expect(before.status).toBe(200);
    const error = { message: { notification_email: ['must be an email you have verified'] } };
    for (const email of [unverified, foreign, other.user.email, 'nobody@example.net', 'not an email', 'a\u0000b@example.com']) {
      const res = await api.put('/notification_settings', { token, body: { notification_email: email, level: 'disabled', new_note: true } });
      expect(res.status, email).toBe(400);
      // A control character never reaches the model: Grape's parameter error.
      expect(res.body).toEqual(email.includes('\u0000') ? { error: 'notification_email is invalid' } : error);
    }
    expect((await api.get('/notification_settings', { token })).body).toEqual({ level: 'watch', notification_email: user.email });
    expect(await storedEmail(user.id)).toBeNull();
    const [row] = await globalRows(user.id);
    expect(row).toMatchObject({ level: 'watch', new_note: null });

    // A user whose primary email is not confirmed cannot choose it either.
    const unconfirmed = await createUser({ confirmedAt: null });
    const res = await api.put('/notification_settings', { token: unconfirmed.token, query: { notification_email: unconfirmed.user.email, level: 'watch' } });
    expect(res).toMatchObject({ status: 400, body: error });
    expect(await globalRows(unconfirmed.user.id)).toHaveLength(0);
  });

  it('invalid level: 400 with the model enum message; blank level: presence error; non-boolean event: Grape 400', async () => {
    const { user, token } = await createUser();
    expect(await api.put('/notification_settings', { token, query: { level: 'invalid' } })).toMatchObject({
      status: 400,
      body: { message: "'invalid' is not a valid level" },
    });
    expect(await api.put('/notification_settings', { token, body: { level: 3 } })).toMatchObject({
      status: 400,
      body: { message: "'3' is not a valid level" },
    });
    expect(await api.put('/notification_settings', { token, query: { level: '' } })).toMatchObject({
      status: 400,
      body: { message: { level: ["can't be blank"] } },
    });
    expect(await api.put('/notification_settings', { token, query: { new_note: 'maybe' } })).toMatchObject({
      status: 400,
      body: { error: 'new_note is invalid' },
    });
    expect(await api.put('/notification_settings', { token, body: { level: 'custom', new_note: 'maybe', moved_project: [] } })).toMatchObject({
      status: 400,
      body: { error: 'new_note is invalid, moved_project is invalid' },
    });
    // The level is checked before the email, as GitLab's enum raises first.
    const second = await addEmail(user.id, true);
    expect(await api.put('/notification_settings', { token, query: { level: 'nope', notification_email: second } })).toMatchObject({
      status: 400,
      body: { message: "'nope' is not a valid level" },
    });
    expect(await storedEmail(user.id)).toBeNull();
    expect(await globalRows(user.id)).toHaveLength(0);
  });

  it('new_epic is not a global event: validated as a Boolean, then ignored, on every tier', async () => {
    const { user, token } = await createUser();
    for (const tier of ['free', 'premium'] as const) {
      const invalid = await api.put('/notification_settings', { token, query: { level: 'custom', new_epic: 'maybe' }, env: { INSTANCE_TIER: tier } });
      expect(invalid).toMatchObject({ status: 400, body: { error: 'new_epic is invalid' } });
      const res = await api.put('/notification_settings', { token, query: { level: 'custom', new_epic: 'true' }, env: { INSTANCE_TIER: tier } });
      expect(res.status).toBe(200);
      expect(res.body.events).not.toHaveProperty('new_epic');
    }
    const [row] = await globalRows(user.id);
    expect(row!.new_epic).toBeNull();
  });

  it('costs at most 4 queries, email and level together', async () => {
    const { user, token } = await createUser();
    const second = await addEmail(user.id, true);
    await api.get('/user', { token });
    const res = await api.put('/notification_settings', { token, query: { level: 'custom', new_note: 'true', notification_email: second } });
    expect(res.status).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(4);
    console.log(`PUT /notification_settings: ${queryCount(res)} queries`);
  });
});
