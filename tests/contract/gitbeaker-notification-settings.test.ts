// @gitbeaker/rest's NotificationSettings against a served instance: global, group and project settings, by id and by
// path, as the client sends them (JSON bodies with snake_case keys).
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { serveTestApp } from '../helpers/app.ts';

describe('@gitbeaker/rest NotificationSettings', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('show() and edit() without a source, with { groupId } and with { projectId }', async () => {
    const me = await createUser();
    const group = await createGroup(me.token);
    const project = await createProject(me.token, { namespaceId: group.id });
    const gl = new Gitlab({ host: server.url, token: me.token });

    expect(await gl.NotificationSettings.show()).toEqual({ level: 'participating', notification_email: me.user.email });
    expect(await gl.NotificationSettings.edit({ level: 'watch', notificationEmail: me.user.email })).toEqual({
      level: 'watch',
      notification_email: me.user.email,
    });
    expect(await gl.NotificationSettings.show()).toEqual({ level: 'watch', notification_email: me.user.email });

    expect(await gl.NotificationSettings.show({ groupId: group.id })).toEqual({ level: 'global' });
    expect(await gl.NotificationSettings.edit({ groupId: group.full_path, level: 'mention' })).toEqual({ level: 'mention' });
    expect(await gl.NotificationSettings.show({ groupId: group.full_path })).toEqual({ level: 'mention' });

    expect(await gl.NotificationSettings.show({ projectId: project.path_with_namespace })).toEqual({ level: 'global' });
    const custom = await gl.NotificationSettings.edit({ projectId: project.id, level: 'custom', newNote: true, movedProject: true });
    expect(custom).toMatchObject({ level: 'custom', events: { new_note: true, new_issue: false, moved_project: true, failed_pipeline: true } });
    expect(await gl.NotificationSettings.show({ projectId: project.id })).toEqual(custom);

    const error = await gl.NotificationSettings.edit({ projectId: project.id, level: 'invalid' }).then(
      () => null,
      (e: any) => e,
    );
    expect(error?.cause?.response?.status).toBe(400);
    expect(error?.cause?.description).toBe("'invalid' is not a valid level");

    const stranger = new Gitlab({ host: server.url, token: (await createUser()).token });
    const hidden = await stranger.NotificationSettings.show({ groupId: group.id }).then(
      () => null,
      (e: any) => e,
    );
    expect(hidden?.cause?.response?.status).toBe(404);
    expect(hidden?.cause?.description).toBe('404 Group Not Found');
  });
});
