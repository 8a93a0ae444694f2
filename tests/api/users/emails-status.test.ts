// A user's secondary emails (/user/emails, /users/:id/emails for administrators) and status (/user/status,
// /users/:id/status), as GitLab 13.6 answers them.
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { emails } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { unique } from '../../factories/users.ts';

const emailCount = async (userId: number) => (await testDb().db.select({ n: count() }).from(emails).where(eq(emails.userId, userId)))[0]!.n;

describe('secondary emails', () => {
  it('add (201, unconfirmed), list, read, delete; another user cannot reach them', async () => {
    const me = await createUser();
    const address = `${unique('second')}@example.com`;
    const added = await api.post('/user/emails', { token: me.token, body: { email: address } });
    expect([added.status, added.body]).toEqual([201, { id: expect.any(Number), email: address, confirmed_at: null }]);
    const list = await api.get('/user/emails', { token: me.token });
    expect([list.status, list.body, list.headers.get('x-total')]).toEqual([200, [added.body], '1']);
    expect((await api.get(`/user/emails/${added.body.id}`, { token: me.token })).body).toEqual(added.body);
    const other = await createUser();
    expect((await api.get(`/user/emails/${added.body.id}`, { token: other.token })).body).toEqual({ message: '404 Email Not Found' });
    expect((await api.delete(`/user/emails/${added.body.id}`, { token: other.token })).status).toBe(404);
    expect((await api.delete(`/user/emails/${added.body.id}`, { token: me.token })).status).toBe(204);
    expect(await emailCount(me.user.id)).toBe(0);
  });

  it("refuses a malformed email and anyone's primary or secondary one, case aside; nothing written", async () => {
    const me = await createUser();
    const other = await createUser();
    for (const [email, message] of [
      ['not-an-email', 'is invalid'],
      [other.user.email.toUpperCase(), 'has already been taken'],
      [me.user.email, 'has already been taken'],
    ] as const) {
      const res = await api.post('/user/emails', { token: me.token, body: { email } });
      expect([res.status, res.body]).toEqual([400, { message: { email: [message] } }]);
    }
    expect((await api.post('/user/emails', { token: me.token, body: {} })).body).toEqual({ error: 'email is missing' });
    expect(await emailCount(me.user.id)).toBe(0);
  });

  it("administrators list, add (confirmed with skip_confirmation) and delete anyone's; others 403", async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    const refused = await api.get(`/users/${someone.user.id}/emails`, { token: someone.token });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    const added = await api.post(`/users/${someone.user.id}/emails`, {
      token: admin.token,
      body: { email: `${unique('x')}@example.com`, skip_confirmation: true },
    });
    expect(added.status).toBe(201);
    expect(added.body.confirmed_at).toMatch(/^\d{4}-/);
    expect((await api.get(`/users/${someone.user.id}/emails`, { token: admin.token })).body).toEqual([added.body]);
    expect((await api.delete(`/users/${someone.user.id}/emails/${added.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.get('/users/999999999/emails', { token: admin.token })).body).toEqual({ message: '404 User Not Found' });
  });

  describeAuthorization('POST /user/emails', {
    fixture: async () => ({ allowed: (await createUser()).token }),
    call: (_fx, token) => api.post('/user/emails', { token, body: { email: `${unique('auth')}@example.com` } }),
    success: 201,
  });
});

describe('status', () => {
  it('none at first; set with an emoji and a message (rendered with gl-emoji); message alone takes speech_balloon; both blank clears', async () => {
    const me = await createUser();
    const none = { emoji: null, message: null, message_html: null };
    expect((await api.get('/user/status', { token: me.token })).body).toEqual(none);
    const set = await api.put('/user/status', { token: me.token, body: { emoji: 'tada', message: 'Out <b>for</b> :tada:' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      emoji: 'tada',
      message: 'Out <b>for</b> :tada:',
      message_html: 'Out &lt;b&gt;for&lt;/b&gt; <gl-emoji title="party popper" data-name="tada" data-unicode-version="6.0">🎉</gl-emoji>',
    });
    expect((await api.get(`/users/${me.user.username}/status`)).body).toEqual(set.body);
    expect((await api.put('/user/status', { token: me.token, body: { message: 'busy' } })).body).toMatchObject({ emoji: 'speech_balloon', message: 'busy' });
    expect((await api.put('/user/status', { token: me.token, body: { emoji: '', message: '' } })).body).toEqual(none);
    expect((await api.get(`/users/${me.user.id}/status`)).body).toEqual(none);
  });

  it('an unknown emoji and a message over 100 characters are refused; the status stays', async () => {
    const me = await createUser();
    await api.put('/user/status', { token: me.token, body: { emoji: 'rocket', message: 'ok' } });
    const res = await api.put('/user/status', { token: me.token, body: { emoji: 'not_an_emoji', message: 'x'.repeat(101) } });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { emoji: ['is not included in the list'], message: ['is too long (maximum is 100 characters)'] } },
    ]);
    expect((await api.get('/user/status', { token: me.token })).body).toMatchObject({ emoji: 'rocket', message: 'ok' });
    expect((await api.get('/users/no-such-user-here/status')).body).toEqual({ message: '404 User Not Found' });
    expect((await api.put('/user/status', { body: { message: 'x' } })).status).toBe(401);
  });
});

describe('activities', () => {
  it('using the API marks the user active today; administrators list who was active since a day', async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    expect((await api.get('/user', { token: someone.token })).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const res = await api.get('/user/activities', { token: admin.token, query: { from: today, per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).not.toBeNull();
    // Every user the suite has signed in today is listed: look through the pages.
    const listed = [...res.body];
    for (let page = 2; page <= Number(res.headers.get('x-total-pages')); page++) {
      listed.push(...(await api.get('/user/activities', { token: admin.token, query: { from: today, per_page: 100, page } })).body);
    }
    expect(listed).toContainEqual({ username: someone.user.username, last_activity_on: today, last_activity_at: today });
    expect((await api.get(`/users/${someone.user.id}`, { token: admin.token })).body.last_activity_on).toBe(today);
    expect((await api.get('/user/activities', { token: admin.token, query: { from: '2999-01-01' } })).body).toEqual([]);
    expect((await api.get('/user/activities', { token: someone.token })).status).toBe(403);
  });
});
