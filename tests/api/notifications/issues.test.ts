// Notification-setting events of issues (GitLab 13.6 NotificationService#new_issue, close_issue, reopen_issue,
// reassigned_issue): the same builder as merge requests, with issue:read deciding who may be told (a confidential
// issue reaches reporters, its author and assignees only), and issues closed by a merge ("Closes #N") telling their
// own participants.
import { describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { mrProject, mrs, openMergeRequest } from '../merge-requests/support.ts';
import { level, told, keepMail } from './support.ts';

keepMail();

describe('issue notifications', () => {
  it('new_issue: watchers who may read it (not a guest on a confidential issue), assignees, the mentioned', async () => {
    const owner = await createUser();
    const [watcher, guest, assignee, mentioned] = [await createUser(), await createUser(), await createUser(), await createUser()];
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', project.id, watcher.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', project.id, assignee.user.id, 30);
    for (const u of [watcher, guest]) await level(u, `/projects/${project.id}/notification_settings`, { level: 'watch' });
    const users = { owner, watcher, guest, assignee, mentioned };
    const create = async (body: Record<string, unknown>) => {
      const res = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number; iid: number };
    };
    const open = await create({ title: 'Open', description: `cc @${mentioned.user.username}`, assignee_ids: [assignee.user.id] });
    expect(await told(open.id, users, 'Issue')).toEqual([
      ['assignee', 'new_issue', 'assigned'],
      ['guest', 'new_issue', null],
      ['mentioned', 'new_issue', 'mentioned'],
      ['watcher', 'new_issue', null],
    ]);
    // A confidential issue: the guest may not read it, and the mentioned stranger neither.
    const secret = await create({ title: 'Secret', description: `cc @${mentioned.user.username}`, confidential: true, assignee_ids: [assignee.user.id] });
    expect(await told(secret.id, users, 'Issue')).toEqual([
      ['assignee', 'new_issue', 'assigned'],
      ['watcher', 'new_issue', null],
    ]);
  });

  it('close, reopen and reassign; an issue a merge closes tells its participants', async () => {
    const fx = await mrProject('issuenotify');
    const created = await api.post(`/projects/${fx.project.id}/issues`, { token: fx.developer.token, body: { title: 'Bug' } });
    expect(created.status).toBe(201);
    const issue = created.body as { id: number; iid: number };
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    const users = { owner: fx.owner, developer: fx.developer, reporter: fx.reporter };
    // Delivered step by step, as the scheduled work would before the next change.
    expect(await told(issue.id, users, 'Issue')).toEqual([]);
    for (const state_event of ['close', 'reopen']) expect((await api.put(url, { token: fx.owner.token, body: { state_event } })).status).toBe(200);
    await told(issue.id, users, 'Issue');
    expect((await api.put(url, { token: fx.owner.token, body: { assignee_ids: [fx.reporter.user.id] } })).status).toBe(200);
    expect(await told(issue.id, users, 'Issue')).toEqual([
      ['developer', 'close_issue', null],
      ['developer', 'reassign_issue', null],
      ['developer', 'reopen_issue', null],
      ['reporter', 'reassign_issue', 'assigned'],
    ]);
    // The owner's MR closes it when merged: the author and the assignee are told, the merger is not.
    const mr = await openMergeRequest(fx, { description: `Closes #${issue.iid}` });
    const merged = await api.put(`${mrs(fx)}/${mr.iid}/merge`, { token: fx.owner.token });
    expect(merged.status, merged.text).toBe(200);
    expect((await told(issue.id, users, 'Issue')).filter(([, action]) => action === 'close_issue')).toEqual([
      ['developer', 'close_issue', null],
      ['developer', 'close_issue', null],
      ['reporter', 'close_issue', null],
    ]);
  });
});
