// An account whose email is not confirmed gets nothing from OAuth (issue 12, item 7): the consent page refuses it
// and the password grant answers as GitLab's Doorkeeper does when it finds no resource owner (GlobalPolicy's
// `inactive` prevents :log_in): invalid_grant. Once confirmed, both work.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { testDb } from '../helpers/app.ts';
import { PASSWORD, signedIn } from '../helpers/browser.ts';
import { createApplication, tokensOfApplication } from '../factories/oauth.ts';
import { authServer, basic, clientOf, http, oauth } from './client.ts';

const randomIp = () => `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;

describe('unconfirmed users', () => {
  it('the password grant: invalid_grant, nothing issued; the same user confirmed gets tokens', async () => {
    const { user } = await signedIn({ confirmedAt: null });
    const app = await createApplication({ scopes: ['api', 'read_user'] });
    const as = await authServer();
    const passwordGrant = () =>
      oauth.genericTokenEndpointRequest(
        as,
        clientOf(app),
        basic(app),
        'password',
        { username: user.username, password: PASSWORD, scope: 'read_user' },
        { ...http, headers: { 'cf-connecting-ip': randomIp() } },
      );
    const refused = await passwordGrant();
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
    await expect(oauth.processGenericTokenEndpointResponse(as, clientOf(app), await passwordGrant())).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await tokensOfApplication(app.id)).toEqual([]);

    await testDb().db.update(users).set({ confirmedAt: new Date() }).where(eq(users.id, user.id));
    const tokens = await oauth.processGenericTokenEndpointResponse(as, clientOf(app), await passwordGrant());
    expect(tokens.scope).toBe('read_user');
  });

  it('the consent page refuses the same user by the same rule, and serves it once confirmed', async () => {
    const { user, browser } = await signedIn({ confirmedAt: null });
    const app = await createApplication();
    const path = `/oauth/authorize?${new URLSearchParams({ client_id: app.uid, redirect_uri: app.redirectUris[0]!, response_type: 'code', scope: 'read_user' })}`;
    const page = await browser.get(path);
    expect(page.status).toBe(400);
    expect(page.text).toContain('Verify the email address in your account profile before you sign in.');
    await testDb().db.update(users).set({ confirmedAt: new Date() }).where(eq(users.id, user.id));
    expect((await browser.get(path)).status).toBe(200);
  });
});
