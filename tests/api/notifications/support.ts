// What the notification tests share: setting a level over HTTP, delivering the outbox as the scheduled work does and
// reading who each event's messages went to, and the log transport's lines (kept out of the test output).
import { and, eq, type SQL } from 'drizzle-orm';
import { beforeEach, expect, vi } from 'vitest';
import { notifications } from '../../../db/schema/index.ts';
import { deliverNotifications } from '../../../functions/notifications/deliver.ts';
import type { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

export type User = Awaited<ReturnType<typeof createUser>>;

let mail: { mock: { calls: unknown[][] }; mockRestore(): void };
/**
 * Each test of the calling file keeps the log transport's lines (mailLines) and out of the output. Called by each
 * file, not registered here: a worker imports this module once for all its files (isolate: false), and a hook
 * registered at import would belong to the first file only.
 */
export function keepMail() {
  beforeEach(() => {
    mail = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    return () => mail.mockRestore();
  });
}

/** The messages the log transport wrote in this test. */
export const mailLines = () => mail.mock.calls.map(([line]) => JSON.parse(String(line))).filter((l) => l.msg === 'notification email');

/**
 * Delivers what is pending and waits until every event about the target is delivered (another test file's
 * housekeeping run may have claimed some and still be resolving them), then the messages about it: [user, action,
 * reason] sorted by user, then action.
 */
export async function told(id: number, users: Record<string, User>, type: 'MergeRequest' | 'Issue' | 'Epic' = 'MergeRequest') {
  const names = new Map(Object.entries(users).map(([name, u]) => [u.user.id, name]));
  const rows = await deliveredEvents(and(eq(notifications.targetType, type), eq(notifications.targetId, id))!);
  return rows
    .flatMap((r) => (r.recipients ?? []).map((m) => [names.get(m.user_id) ?? `user ${m.user_id}`, r.action, m.reason] as const))
    .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`));
}

/** The events `where` selects, once all are delivered (delivering what is pending first). */
export async function deliveredEvents(where: SQL) {
  await deliverNotifications({ ctx: testDb() });
  for (let attempt = 0; ; attempt++) {
    const rows = await testDb().db.select().from(notifications).where(where);
    if (rows.every((r) => r.recipients !== null) || attempt === 100) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Puts the events `where` selects back in the outbox, as if their delivery had not run yet (a backlog, a run that
 * failed): the prompt run after each request has delivered them already.
 */
export async function undeliver(where: SQL) {
  await testDb().db.update(notifications).set({ deliveredAt: null, recipients: null }).where(where);
}

/** The events about one target. */
export const about = (type: 'MergeRequest' | 'Issue' | 'Epic', id: number) => and(eq(notifications.targetType, type), eq(notifications.targetId, id))!;

export async function level(user: User, path: string, settings: Record<string, unknown>) {
  const res = await api.put(path, { token: user.token, body: settings });
  expect(res.status, res.text).toBe(200);
}
