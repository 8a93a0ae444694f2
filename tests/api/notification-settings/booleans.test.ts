// Every email event of a notification-settings PUT is a Boolean, validated alike on every tier and every kind of
// setting: `new_epic=notbool` is the same 400 as `new_note=notbool`, even where new_epic is not shown (the free tier,
// the global setting), and nothing is written.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationSettings } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const stored = async (userId: number) => testDb().db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));

describe('notification settings: every event parameter is a Boolean', () => {
  it('new_epic=notbool is 400 `new_epic is invalid` like new_note=notbool, on every tier and setting, in query, form and JSON', async () => {
    const { user, token } = await createUser();
    const group = await createGroup(token);
    const project = await createProject(token, { namespaceId: group.id });
    const urls = ['/notification_settings', `/groups/${group.id}/notification_settings`, `/projects/${project.id}/notification_settings`];
    for (const tier of ['free', 'premium'] as const) {
      const env = { INSTANCE_TIER: tier };
      for (const url of urls) {
        for (const event of ['new_note', 'new_epic']) {
          const invalid = { status: 400, body: { error: `${event} is invalid` } };
          expect(await api.put(url, { token, env, query: { level: 'custom', [event]: 'notbool' } }), `${tier} ${url} ${event}`).toMatchObject(invalid);
          expect(await api.put(url, { token, env, body: { level: 'custom', [event]: 'notbool' } }), `${tier} ${url} ${event} (JSON)`).toMatchObject(invalid);
          expect(await api.put(url, { token, env, form: { level: 'custom', [event]: '2' } }), `${tier} ${url} ${event} (form)`).toMatchObject(invalid);
        }
      }
    }
    expect(await stored(user.id)).toEqual([]);
  });

  it('a valid new_epic where the setting has no such event is accepted and ignored', async () => {
    const { user, token } = await createUser();
    const group = await createGroup(token);
    const free = await api.put(`/groups/${group.id}/notification_settings`, { token, query: { level: 'custom', new_epic: 'yes' } });
    expect(free.status).toBe(200);
    expect(free.body.events).not.toHaveProperty('new_epic');
    const global = await api.put('/notification_settings', { token, query: { level: 'custom', new_epic: 'true' }, env: { INSTANCE_TIER: 'ultimate' } });
    expect(global.status).toBe(200);
    expect(global.body.events).not.toHaveProperty('new_epic');
    expect((await stored(user.id)).map((r) => r.new_epic)).toEqual([null, null]);
  });
});
