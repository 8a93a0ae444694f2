// The new_epic notification (GitLab 13.6 EE NotificationService#new_epic): creating an epic on Premium and above
// writes its outbox row in the epic's transaction (a group-level row: group_id set, project_id null); delivery tells
// the group's watchers and custom-level users with new_epic on (the setting chain: the epic's group, then its
// ancestors, then global), the users the description mentions, never the author, and only those who may read the
// epic (a confidential one: reporters and up).
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { about, keepMail, level, told, undeliver } from './support.ts';

keepMail();

const PREMIUM = { INSTANCE_TIER: 'premium' } as const;

async function createEpicAs(token: string, groupId: number, body: Record<string, unknown>, env: Record<string, string> = PREMIUM) {
  const res = await api.post(`/groups/${groupId}/epics`, { token, body, env });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; iid: number };
}

const outbox = (epicId: number) =>
  testDb()
    .db.select()
    .from(notifications)
    .where(and(eq(notifications.targetType, 'Epic'), eq(notifications.targetId, epicId)));

describe('epic notifications', () => {
  it('new_epic: the outbox row, then watchers, custom new_epic, the mentioned; not the author nor other levels', async () => {
    const owner = await createUser();
    const [watcher, custom, customOff, participating, mentioned, stranger] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
    ];
    const group = await createGroup(owner.token);
    for (const u of [watcher, custom, customOff, participating, mentioned]) await addMember(owner.token, 'groups', group.id, u.user.id, 20);
    await level(owner, `/groups/${group.id}/notification_settings`, { level: 'watch' });
    await level(watcher, `/groups/${group.id}/notification_settings`, { level: 'watch' });
    // new_epic is a setting's event on Premium and above only.
    const set = await api.put(`/groups/${group.id}/notification_settings`, { token: custom.token, body: { level: 'custom', new_epic: true }, env: PREMIUM });
    expect(set.body).toMatchObject({ level: 'custom', events: { new_epic: true } });
    await level(customOff, `/groups/${group.id}/notification_settings`, { level: 'custom', new_issue: true });
    await level(participating, `/groups/${group.id}/notification_settings`, { level: 'participating' });
    const users = { owner, watcher, custom, customOff, participating, mentioned, stranger };
    const epic = await createEpicAs(owner.token, group.id, { title: 'Roadmap', description: `cc @${mentioned.user.username} @${stranger.user.username}` });
    const [row] = await outbox(epic.id);
    expect(row).toMatchObject({ action: 'new_epic', targetType: 'Epic', targetId: epic.id, groupId: group.id, projectId: null, actorId: owner.user.id });
    expect(await told(epic.id, users, 'Epic')).toEqual([
      ['custom', 'new_epic', null],
      ['mentioned', 'new_epic', 'mentioned'],
      ['watcher', 'new_epic', null],
    ]);
  });

  it('a confidential epic reaches reporters and up only; the setting chain runs subgroup -> group -> global', async () => {
    const owner = await createUser();
    const [guest, reporter, parentWatcher, overridden, globalWatcher] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
    ];
    const parent = await createGroup(owner.token);
    const group = await createGroup(owner.token, { parentId: parent.id });
    await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
    await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
    for (const u of [parentWatcher, overridden, globalWatcher]) await addMember(owner.token, 'groups', parent.id, u.user.id, 30);
    for (const u of [guest, reporter]) await level(u, `/groups/${group.id}/notification_settings`, { level: 'watch' });
    await level(parentWatcher, `/groups/${parent.id}/notification_settings`, { level: 'watch' });
    await level(overridden, `/groups/${parent.id}/notification_settings`, { level: 'watch' });
    await level(overridden, `/groups/${group.id}/notification_settings`, { level: 'disabled' });
    await level(globalWatcher, '/notification_settings', { level: 'watch' });
    const users = { owner, guest, reporter, parentWatcher, overridden, globalWatcher };
    const open = await createEpicAs(owner.token, group.id, { title: 'Open' });
    expect(await told(open.id, users, 'Epic')).toEqual([
      ['globalWatcher', 'new_epic', null],
      ['guest', 'new_epic', null],
      ['parentWatcher', 'new_epic', null],
      ['reporter', 'new_epic', null],
    ]);
    const secret = await createEpicAs(owner.token, group.id, { title: 'Secret', confidential: true });
    expect(await told(secret.id, users, 'Epic')).toEqual([
      ['globalWatcher', 'new_epic', null],
      ['parentWatcher', 'new_epic', null],
      ['reporter', 'new_epic', null],
    ]);
  });

  it('a child created through the epic tree notifies too (Ultimate); an epic deleted before delivery tells nobody', async () => {
    const owner = await createUser();
    const watcher = await createUser();
    const group = await createGroup(owner.token);
    await addMember(owner.token, 'groups', group.id, watcher.user.id, 20);
    await level(watcher, `/groups/${group.id}/notification_settings`, { level: 'watch' });
    const parentEpic = await createEpicAs(owner.token, group.id, { title: 'Parent' });
    const child = await api.post(`/groups/${group.id}/epics/${parentEpic.iid}/epics`, {
      token: owner.token,
      body: { title: 'Child' },
      env: { INSTANCE_TIER: 'ultimate' },
    });
    expect(child.status, child.text).toBe(201);
    expect(await told(child.body.id, { owner, watcher }, 'Epic')).toEqual([['watcher', 'new_epic', null]]);
    const gone = await createEpicAs(owner.token, group.id, { title: 'Gone' });
    await undeliver(about('Epic', gone.id));
    expect((await api.delete(`/groups/${group.id}/epics/${gone.iid}`, { token: owner.token, env: PREMIUM })).status).toBe(204);
    expect(await told(gone.id, { owner, watcher }, 'Epic')).toEqual([]);
  });
});
