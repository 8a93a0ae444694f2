// Races on one setting. Under TEST_DB=postgres these run on a real PostgreSQL server with concurrent connections
// (the Neon drivers); on PGlite they run interleaved on one connection.
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_LEVELS, notificationSettings } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom', 'watch', 'disabled', 'mention', 'participating'];

describe('concurrent PUTs of one setting', () => {
  it('10 parallel PUTs of the same project setting: all 200, exactly one row, a valid level', async () => {
    const { user, token } = await createUser();
    const project = await createProject(token);
    const results = await Promise.all(
      LEVELS.map((level) => api.put(`/projects/${project.id}/notification_settings`, { token, query: { level, new_note: 'true' } })),
    );
    for (const r of results) expect(r.status, r.text).toBe(200);
    const rows = await testDb()
      .db.select()
      .from(notificationSettings)
      .where(and(eq(notificationSettings.userId, user.id), eq(notificationSettings.projectId, project.id)));
    expect(rows).toHaveLength(1);
    expect(NOTIFICATION_LEVELS).toContain(rows[0]!.level);
    expect(rows[0]!.new_note).toBe(true);
    expect((await api.get(`/projects/${project.id}/notification_settings`, { token })).body.level).toBe(rows[0]!.level);
  });

  it('10 parallel PUTs of the same group setting and of the global setting (both sources null): one row each', async () => {
    const { user, token } = await createUser();
    const group = await createGroup(token);
    const results = await Promise.all([
      ...LEVELS.map((level) => api.put(`/groups/${group.id}/notification_settings`, { token, query: { level } })),
      ...LEVELS.map((level) => api.put('/notification_settings', { token, query: { level } })),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    const db = testDb().db;
    const groupRows = await db
      .select()
      .from(notificationSettings)
      .where(and(eq(notificationSettings.userId, user.id), eq(notificationSettings.namespaceId, group.id)));
    const globalRows = await db
      .select()
      .from(notificationSettings)
      .where(and(eq(notificationSettings.userId, user.id), isNull(notificationSettings.projectId), isNull(notificationSettings.namespaceId)));
    expect(groupRows).toHaveLength(1);
    expect(globalRows).toHaveLength(1);
  });
});
