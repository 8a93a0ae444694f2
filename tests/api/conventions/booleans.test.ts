// Boolean parameters outside the domain schemas that already used lib/validate.ts `bool()`: the Features API's
// `force` and the applications page's `confidential` checkbox take Grape's boolean forms and refuse anything else,
// as every other boolean does (notification-settings events: tests/api/notification-settings/booleans.test.ts).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthApplications } from '../../../db/schema/index.ts';
import { createAdmin, unique } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { csrfToken, signedIn } from '../../helpers/browser.ts';

describe('boolean parameters are validated alike', () => {
  it('POST /features/:name: force=notbool is 400 `force is invalid`; a boolean force is accepted', async () => {
    const { token } = await createAdmin();
    const name = unique('force_');
    expect(await api.post(`/features/${name}`, { token, form: { value: 'true', force: 'notbool' } })).toMatchObject({
      status: 400,
      body: { error: 'force is invalid' },
    });
    expect(await api.post(`/features/${name}`, { token, body: { value: 'true', force: 'maybe' } })).toMatchObject({
      status: 400,
      body: { error: 'force is invalid' },
    });
    expect((await api.get('/features', { token })).body.map((f: any) => f.name)).not.toContain(name);
    expect(await api.post(`/features/${name}`, { token, form: { value: 'true', force: 'true' } })).toMatchObject({ status: 201, body: { name, state: 'on' } });
  });

  it("the applications page's confidential checkbox: Grape's true and false forms, anything else is a form error", async () => {
    const { browser, user } = await signedIn();
    const create = async (confidential: string) => {
      const page = await browser.get('/oauth/applications');
      const name = unique('Form app ');
      const res = await browser.post('/oauth/applications', [
        ['authenticity_token', csrfToken(page.text)],
        ['doorkeeper_application[name]', name],
        ['doorkeeper_application[redirect_uri]', 'https://client.example.test/callback'],
        ['doorkeeper_application[confidential]', confidential],
        ['doorkeeper_application[scopes][]', 'api'],
      ]);
      const [row] = await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.name, name));
      return { res, row };
    };
    for (const [value, confidential] of [
      ['1', true],
      ['yes', true],
      ['on', true],
      ['0', false],
      ['no', false],
      ['off', false],
    ] as const) {
      const { res, row } = await create(value);
      expect(res.status, `${value}: ${res.text}`).toBe(201);
      expect(row, value).toMatchObject({ ownerId: user.id, confidential });
    }
    const { res, row } = await create('notbool');
    expect(res.status).toBe(400);
    expect(res.text).toContain('Confidential is invalid');
    expect(row).toBeUndefined();
  });
});
