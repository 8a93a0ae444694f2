// @gitbeaker/rest's ErrorTrackingSettings (create = PUT, edit = PATCH, show = GET), unmodified, against a served
// instance. The spec names the external URL `tracker_external_url`; gitbeaker's schema type still says
// `sentry_external_url`, but it passes the body through, so the field arrives under the spec's name.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';

const API_URL = 'https://sentry.example.com/api/0/projects/myorg/myproject/';

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: any) => ({ status: error.cause?.response?.status as number, description: error.cause?.description as unknown }),
  );

describe('@gitbeaker/rest ErrorTrackingSettings against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('show before configuration is 404; create (PUT) configures; edit (PATCH) toggles; show reads it back', async () => {
    const me = await createUser();
    const developer = await createUser();
    const gl = new Gitlab({ host: server.url, token: me.token });
    const project = await gl.Projects.create({ name: `et-${Date.now()}` });
    await gl.ProjectMembers.add(project.id, 30, { userId: developer.user.id });

    expect(await statusOf(gl.ErrorTrackingSettings.show(project.id))).toEqual({ status: 404, description: '404 Error Tracking Setting Not Found' });

    // gitbeaker sends active/integrated in the query string and any further option in the JSON body (snake_cased).
    const created = await gl.ErrorTrackingSettings.create(project.id, true, false, { apiUrl: API_URL, token: 'sntrys_contract' } as never);
    expect(created).toEqual({
      active: true,
      project_name: 'myproject',
      tracker_external_url: 'https://sentry.example.com/myorg/myproject',
      api_url: API_URL,
      integrated: false,
    });

    const disabled = await gl.ErrorTrackingSettings.edit(project.id, false);
    expect(disabled).toMatchObject({ active: false, api_url: API_URL, integrated: false });
    const integrated = await gl.ErrorTrackingSettings.edit(project.id, true, { integrated: true });
    expect(integrated).toMatchObject({ active: true, integrated: true });

    // create with flags only keeps the connection.
    const flags = await gl.ErrorTrackingSettings.create(project.id, true, false);
    expect(flags).toMatchObject({ active: true, integrated: false, project_name: 'myproject' });

    const shown = await gl.ErrorTrackingSettings.show(project.id);
    expect(shown).toEqual({ ...created, active: true, integrated: false });
    expect(JSON.stringify(shown)).not.toContain('sntrys_contract');

    const asDeveloper = new Gitlab({ host: server.url, token: developer.token });
    expect(await statusOf(asDeveloper.ErrorTrackingSettings.show(project.id))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await statusOf(asDeveloper.ErrorTrackingSettings.edit(project.id, false))).toEqual({ status: 403, description: '403 Forbidden' });

    const invalid = await statusOf(
      gl.ErrorTrackingSettings.create(project.id, true, false, { apiUrl: 'http://sentry.example.com/api/0/projects/a/b/' } as never),
    );
    expect(invalid?.status).toBe(400);
  });
});
