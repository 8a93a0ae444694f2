// Broadcast messages (GitLab 13.6's /broadcast_messages): anyone reads them, newest first; administrators create
// (defaults: now, an hour, banner, GitLab's colours), change and delete them.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

describe('broadcast messages', () => {
  it('create with the defaults (201), read without a token, list newest first, update, delete', async () => {
    const admin = await createAdmin();
    const before = Date.now();
    const created = await api.post('/broadcast_messages', { token: admin.token, body: { message: 'Maintenance tonight' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      message: 'Maintenance tonight',
      starts_at: expect.any(String),
      ends_at: expect.any(String),
      color: '#E75E40',
      font: '#FFFFFF',
      target_path: null,
      broadcast_type: 'banner',
      dismissable: null,
      active: true,
    });
    const span = Date.parse(created.body.ends_at) - Date.parse(created.body.starts_at);
    expect(Math.abs(span - 3_600_000)).toBeLessThan(5_000);
    expect(Date.parse(created.body.starts_at)).toBeGreaterThanOrEqual(before - 1_000);

    const later = await api.post('/broadcast_messages', {
      token: admin.token,
      body: {
        message: 'Later',
        starts_at: '2099-01-01T00:00:00Z',
        ends_at: '2099-01-02T00:00:00Z',
        broadcast_type: 'notification',
        dismissable: true,
        color: '#abc',
      },
    });
    expect(later.body).toMatchObject({
      broadcast_type: 'notification',
      dismissable: true,
      active: false,
      color: '#abc',
      starts_at: '2099-01-01T00:00:00.000Z',
    });
    const list = await api.get('/broadcast_messages', { query: { per_page: 100 } });
    expect(list.status).toBe(200);
    const ids = list.body.map((m: { id: number }) => m.id);
    expect(ids.indexOf(later.body.id)).toBeLessThan(ids.indexOf(created.body.id));
    expect(list.headers.get('x-total')).not.toBeNull();
    expect((await api.get(`/broadcast_messages/${created.body.id}`)).body).toEqual(created.body);

    const updated = await api.put(`/broadcast_messages/${created.body.id}`, { token: admin.token, body: { message: 'Moved', target_path: '*/issues' } });
    expect(updated.body).toMatchObject({ id: created.body.id, message: 'Moved', target_path: '*/issues', color: '#E75E40' });
    expect((await api.delete(`/broadcast_messages/${created.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.get(`/broadcast_messages/${created.body.id}`)).body).toEqual({ message: '404 Not found' });
    expect((await api.delete(`/broadcast_messages/${created.body.id}`, { token: admin.token })).status).toBe(404);
  });

  it.each([
    [{}, { error: 'message is missing' }],
    [{ message: 'x', broadcast_type: 'popup' }, { error: 'broadcast_type does not have a valid value' }],
    [{ message: 'x', starts_at: 'tomorrow' }, { error: 'starts_at is invalid' }],
    [{ message: 'x', color: 'red' }, { message: { color: ['must be a valid color code'] } }],
    [{ message: ' ' }, { message: { message: ["can't be blank"] } }],
  ])('400 for %j', async (body, expected) => {
    const admin = await createAdmin();
    const res = await api.post('/broadcast_messages', { token: admin.token, body });
    expect([res.status, res.body]).toEqual([400, expected]);
  });

  describeAuthorization('POST /broadcast_messages', {
    fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
    call: (_fx, token) => api.post('/broadcast_messages', { token, body: { message: 'hello' } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});
