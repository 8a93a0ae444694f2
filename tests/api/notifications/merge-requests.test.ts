// Notification-setting events of merge requests (GitLab 13.6 NotificationService#new_merge_request, close_mr,
// reopen_mr, merge_mr, reassigned_merge_request over NotificationRecipients::Builder::Default and
// NotificationRecipient#notifiable?): who is told is decided by the level that applies to each user (project, then
// the nearest group up the chain that is not `global`, then the global setting) when the scheduled work delivers
// the event the change wrote in its own batch or transaction.
import { describe, expect, it } from 'vitest';
import { notifications } from '../../../db/schema/index.ts';
import { deliverNotifications } from '../../../functions/notifications/deliver.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { branch, commit, mrProject, mrs, openMergeRequest } from '../merge-requests/support.ts';
import { level, mailLines, told, type User, keepMail } from './support.ts';

keepMail();

describe('merge request notifications', () => {
  it('new_merge_request: watchers, custom with the event, assignees (assigned), the mentioned (mentioned), label subscribers; never the author', async () => {
    const fx = await mrProject('mrnotify');
    const p = `/projects/${fx.project.id}/notification_settings`;
    const [watcher, custom, customOff, mentionLevel, disabled, guest, assignee] = (await Promise.all(
      Array.from({ length: 7 }, () => createUser()),
    )) as User[] as [User, User, User, User, User, User, User];
    for (const [u, access] of [
      [watcher, 30],
      [custom, 30],
      [customOff, 30],
      [mentionLevel, 30],
      [disabled, 30],
      [guest, 10],
      [assignee, 30],
    ] as const) {
      await addMember(fx.owner.token, 'projects', fx.project.id, u.user.id, access);
    }
    await level(watcher, p, { level: 'watch' });
    await level(custom, p, { level: 'custom', new_merge_request: true });
    await level(customOff, p, { level: 'custom', new_merge_request: false, merge_merge_request: true });
    await level(mentionLevel, p, { level: 'mention' });
    await level(disabled, '/notification_settings', { level: 'disabled' });
    // A guest of a private project may not read merge requests (download_code): watching tells them nothing.
    await level(guest, p, { level: 'watch' });
    // The reporter subscribes to a label the MR gets; the developer is mentioned at the default (participating) level.
    const label = await api.post(`/projects/${fx.project.id}/labels`, { token: fx.owner.token, body: { name: 'backend', color: '#ff0000' } });
    expect(label.status, label.text).toBe(201);
    expect((await api.post(`/projects/${fx.project.id}/labels/${label.body.id}/subscribe`, { token: fx.reporter.token })).status).toBe(201);
    await level(fx.owner, '/notification_settings', { level: 'watch' });

    const mr = await openMergeRequest(fx, {
      description: `For @${fx.developer.user.username} and @${mentionLevel.user.username}`,
      assignee_ids: [assignee.user.id, disabled.user.id],
      labels: 'backend',
    });
    const users = { owner: fx.owner, developer: fx.developer, reporter: fx.reporter, watcher, custom, customOff, mentionLevel, disabled, guest, assignee };
    expect(await told(mr.id, users)).toEqual([
      ['assignee', 'new_merge_request', 'assigned'],
      ['custom', 'new_merge_request', null],
      ['developer', 'new_merge_request', 'mentioned'],
      ['mentionLevel', 'new_merge_request', 'mentioned'],
      ['reporter', 'new_merge_request', 'subscribed'],
      ['watcher', 'new_merge_request', null],
    ]);
    // Each message is one line of the log transport: the address, GitLab's subject, the reason.
    const lines = mailLines();
    expect(lines.find((l) => l.user_id === assignee.user.id)).toMatchObject({
      to: assignee.user.email,
      subject: `${fx.project.path_with_namespace.split('/')[1]} | Edit the list (!${mr.iid})`,
      action: 'new_merge_request',
      reason: 'assigned',
    });
  });

  it('close, reopen and merge tell participants and watchers; an explicit unsubscribe wins over watching', async () => {
    const fx = await mrProject('mrnotify2');
    const watcher = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, watcher.user.id, 30);
    await level(watcher, `/projects/${fx.project.id}/notification_settings`, { level: 'watch' });
    // The developer opens the MR; the owner closes, reopens and merges it.
    const mr = await openMergeRequest(fx, {}, fx.developer.token);
    const url = `${mrs(fx)}/${mr.iid}`;
    const users = { owner: fx.owner, developer: fx.developer, reporter: fx.reporter, watcher };
    expect(await told(mr.id, users)).toEqual([['watcher', 'new_merge_request', null]]);
    for (const state_event of ['close', 'reopen']) expect((await api.put(url, { token: fx.owner.token, body: { state_event } })).status).toBe(200);
    // Delivered as the scheduled work would, before what follows changes who takes part.
    await deliverNotifications({ ctx: testDb() });
    // The reporter comments (a participant from now on); the watcher subscribes, then unsubscribes (a watcher is not
    // subscribed as such: unsubscribing at once is 304 and changes nothing).
    expect((await api.post(`${url}/notes`, { token: fx.reporter.token, body: { body: 'Looks good' } })).status).toBe(201);
    expect((await api.post(`${url}/unsubscribe`, { token: watcher.token })).status).toBe(304);
    expect((await api.post(`${url}/subscribe`, { token: watcher.token })).status).toBe(201);
    expect((await api.post(`${url}/unsubscribe`, { token: watcher.token })).status).toBe(201);
    const merged = await api.put(`${url}/merge`, { token: fx.owner.token });
    expect(merged.status, merged.text).toBe(200);
    expect(await told(mr.id, users)).toEqual([
      ['developer', 'close_merge_request', null],
      ['developer', 'merge_merge_request', null],
      ['developer', 'reopen_merge_request', null],
      ['reporter', 'merge_merge_request', null],
      ['watcher', 'close_merge_request', null],
      ['watcher', 'new_merge_request', null],
      ['watcher', 'reopen_merge_request', null],
    ]);
  });

  it('reassign_merge_request: the previous and the new assignees, whatever their level short of disabled', async () => {
    const fx = await mrProject('mrnotify3');
    const mr = await openMergeRequest(fx, { assignee_ids: [fx.developer.user.id] });
    const users = { owner: fx.owner, developer: fx.developer, reporter: fx.reporter };
    expect(await told(mr.id, users)).toEqual([['developer', 'new_merge_request', 'assigned']]);
    await level(fx.reporter, `/projects/${fx.project.id}/notification_settings`, { level: 'mention' });
    const res = await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { assignee_ids: [fx.reporter.user.id] } });
    expect(res.status, res.text).toBe(200);
    // Setting the same assignees again is no reassignment.
    expect((await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { assignee_ids: [fx.reporter.user.id] } })).status).toBe(200);
    expect(await told(mr.id, users)).toEqual([
      ['developer', 'new_merge_request', 'assigned'],
      ['developer', 'reassign_merge_request', null],
      ['reporter', 'reassign_merge_request', 'assigned'],
    ]);
  });

  it('the level applies through the chain: project, nearest group that is not global, global', async () => {
    const owner = await createUser();
    const actor = await createUser();
    const root = await createGroup(owner.token);
    const middle = await createGroup(owner.token, { parentId: root.id });
    const leaf = await createGroup(owner.token, { parentId: middle.id });
    await addMember(owner.token, 'groups', root.id, actor.user.id, 40);
    const created = await api.post('/projects', {
      token: actor.token,
      body: { name: `chain-${Date.now()}`, namespace_id: leaf.id, initialize_with_readme: true },
    });
    expect(created.status, created.text).toBe(201);
    const fx = { project: created.body as { id: number; path_with_namespace: string }, owner: actor };
    await branch(fx, 'topic');
    await commit(fx, 'topic', 'Change', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }]);
    const mr = await openMergeRequest(fx);
    const url = `${mrs(fx)}/${mr.iid}`;
    // Each close tells the owner (a member of the root group, no participant) exactly when their applying level watches.
    const closes = async () => {
      expect((await api.put(url, { token: actor.token, body: { state_event: 'close' } })).status).toBe(200);
      expect((await api.put(url, { token: actor.token, body: { state_event: 'reopen' } })).status).toBe(200);
      return (await told(mr.id, { owner })).filter(([name, action]) => name === 'owner' && action === 'close_merge_request').length;
    };
    let expected = 0;
    const step = async (path: string, l: string, tellsOwner: boolean) => {
      await level(owner, path, { level: l });
      if (tellsOwner) expected++;
      expect(await closes(), `${path} ${l}`).toBe(expected);
    };
    await step('/notification_settings', 'watch', true);
    await step(`/groups/${root.id}/notification_settings`, 'disabled', false);
    await step(`/groups/${middle.id}/notification_settings`, 'mention', false);
    await step(`/groups/${leaf.id}/notification_settings`, 'global', false);
    await step(`/groups/${leaf.id}/notification_settings`, 'watch', true);
    await step(`/projects/${created.body.id}/notification_settings`, 'participating', false);
    await step(`/projects/${created.body.id}/notification_settings`, 'global', true);
    await step(`/groups/${leaf.id}/notification_settings`, 'global', false);
    await step(`/groups/${middle.id}/notification_settings`, 'global', false);
    await step(`/groups/${root.id}/notification_settings`, 'global', true);
    // A custom level tells of the events it names.
    await step('/notification_settings', 'custom', false);
    await level(owner, '/notification_settings', { close_merge_request: true });
    expected++;
    expect(await closes()).toBe(expected);
  });

  it('nothing is written when the change is refused', async () => {
    const fx = await mrProject('mrnotify4');
    await level(fx.developer, `/projects/${fx.project.id}/notification_settings`, { level: 'watch' });
    await openMergeRequest(fx);
    const before = await testDb().db.$count(notifications);
    const duplicate = await api.post(mrs(fx), { token: fx.owner.token, body: { source_branch: 'topic', target_branch: 'master', title: 'Again' } });
    expect(duplicate.status).toBe(409);
    expect(await testDb().db.$count(notifications)).toBe(before);
  });
});
