// effectiveNotificationLevel: project -> nearest group up the chain (stopping at the first level that is not
// global) -> the user's global setting (participating by default). Levels are set through the HTTP API.
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../../functions/lib/errors.ts';
import { effectiveNotificationLevel } from '../../../functions/notification-settings/effective-level.ts';
import { restError } from '../../../functions/rest-errors.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

async function put(token: string, path: string, level: string) {
  const res = await api.put(path, { token, query: { level } });
  expect(res.status, res.text).toBe(200);
}

describe('effectiveNotificationLevel', () => {
  it('walks project -> subgroup -> group -> root group -> global on a 3-level nested group', async () => {
    const { user, token } = await createUser();
    const root = await createGroup(token);
    const middle = await createGroup(token, { parentId: root.id });
    const leaf = await createGroup(token, { parentId: middle.id });
    const project = await createProject(token, { namespaceId: leaf.id });
    const ctx = testDb();
    const effective = () => effectiveNotificationLevel(ctx, user.id, project.id);

    // Nothing stored anywhere: the global default.
    expect(await effective()).toBe('participating');
    await put(token, '/notification_settings', 'watch');
    expect(await effective()).toBe('watch');

    // The root group's level applies below it; a nearer group wins; a group set to global inherits.
    await put(token, `/groups/${root.id}/notification_settings`, 'disabled');
    expect(await effective()).toBe('disabled');
    await put(token, `/groups/${middle.id}/notification_settings`, 'mention');
    expect(await effective()).toBe('mention');
    await put(token, `/groups/${leaf.id}/notification_settings`, 'global');
    expect(await effective()).toBe('mention');
    await put(token, `/groups/${leaf.id}/notification_settings`, 'custom');
    expect(await effective()).toBe('custom');

    // The project's own level wins; set back to global it inherits again.
    await put(token, `/projects/${project.id}/notification_settings`, 'participating');
    expect(await effective()).toBe('participating');
    await put(token, `/projects/${project.id}/notification_settings`, 'global');
    expect(await effective()).toBe('custom');

    // Unwinding the chain falls through to the root, then to the global setting.
    await put(token, `/groups/${leaf.id}/notification_settings`, 'global');
    await put(token, `/groups/${middle.id}/notification_settings`, 'global');
    expect(await effective()).toBe('disabled');
    await put(token, `/groups/${root.id}/notification_settings`, 'global');
    expect(await effective()).toBe('watch');

    // Another user's settings play no part.
    const other = await createUser();
    expect(await effectiveNotificationLevel(ctx, other.user.id, project.id)).toBe('participating');
  });

  it('a personal project: project, then global; an unknown project is 404', async () => {
    const { user, token } = await createUser();
    const project = await createProject(token);
    const ctx = testDb();
    await put(token, '/notification_settings', 'mention');
    expect(await effectiveNotificationLevel(ctx, user.id, project.id)).toBe('mention');
    await put(token, `/projects/${project.id}/notification_settings`, 'watch');
    expect(await effectiveNotificationLevel(ctx, user.id, project.id)).toBe('watch');
    const missing = await effectiveNotificationLevel(ctx, user.id, 2_000_000_000).catch((e: DomainError) => e);
    expect(restError(missing as DomainError)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});
