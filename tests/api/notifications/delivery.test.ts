// The deliverer (scheduled work): concurrent runs take different events (each message is sent once), an event
// whose target was deleted tells nobody, and delivered events are deleted after the retention.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../../db/schema/index.ts';
import { deliverNotifications } from '../../../functions/notifications/deliver.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { about, deliveredEvents, keepMail, level, mailLines, undeliver } from './support.ts';

keepMail();

async function watchedProject() {
  const owner = await createUser();
  const watcher = await createUser();
  const project = await createProject(owner.token);
  await addMember(owner.token, 'projects', project.id, watcher.user.id, 30);
  await level(watcher, `/projects/${project.id}/notification_settings`, { level: 'watch' });
  const issue = async (title: string) => {
    const res = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; iid: number };
  };
  return { owner, watcher, project, issue };
}

describe('notification delivery', () => {
  it('two runs at once send each message once', async () => {
    const fx = await watchedProject();
    const issues = [];
    for (let i = 0; i < 12; i++) issues.push(await fx.issue(`Issue ${i}`));
    // Each request's prompt run delivered its event: back in the outbox, for the two runs below.
    await undeliver(eq(notifications.projectId, fx.project.id));
    const before = mailLines().length;
    // Small claims, so the two runs interleave; they deliver other test files' events too (the outbox is the
    // database's), and another file's run may take some of these.
    await Promise.all([deliverNotifications({ ctx: testDb() }, 3), deliverNotifications({ ctx: testDb() }, 3)]);
    const rows = await deliveredEvents(eq(notifications.projectId, fx.project.id));
    expect(rows.map((r) => r.recipients)).toEqual(issues.map(() => [{ user_id: fx.watcher.user.id, reason: null }]));
    // What these two runs sent, each message once.
    const subjects = mailLines()
      .slice(before)
      .filter((l) => l.user_id === fx.watcher.user.id)
      .map((l) => l.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  it('a deleted target tells nobody; delivered events go after a week', async () => {
    const fx = await watchedProject();
    const issue = await fx.issue('Doomed');
    await undeliver(about('Issue', issue.id));
    expect((await api.delete(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.owner.token })).status).toBe(204);
    const [row] = await deliveredEvents(about('Issue', issue.id));
    expect(row).toMatchObject({ action: 'new_issue', recipients: [] });
    expect(row!.deliveredAt).toBeInstanceOf(Date);
    await testDb()
      .db.update(notifications)
      .set({ deliveredAt: sql`now() - interval '8 days'` })
      .where(eq(notifications.id, row!.id));
    const result = await deliverNotifications({ ctx: testDb() });
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(await testDb().db.$count(notifications, eq(notifications.id, row!.id))).toBe(0);
  });
});
