// oauth4webapi wired to the in-process app: the strict client every flow test uses.
import * as oauth from 'oauth4webapi';
import { appFetch, request, TEST_PUBLIC_URL } from '../helpers/app.ts';
import type { TestApplication } from '../factories/oauth.ts';

export const http = { [oauth.customFetch]: appFetch } as const;

let cached: oauth.AuthorizationServer | undefined;
export async function authServer(): Promise<oauth.AuthorizationServer> {
  if (!cached) {
    const issuer = new URL(TEST_PUBLIC_URL);
    cached = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...http }));
  }
  return cached;
}

export const clientOf = (app: TestApplication): oauth.Client => ({ client_id: app.uid });
export const basic = (app: TestApplication) => oauth.ClientSecretBasic(app.secret);

/** The callback URL the consent page would redirect to, validated as a client would. */
export async function callbackParams(app: TestApplication, code: string, redirectUri = app.redirectUris[0]!) {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', 'xyz');
  return oauth.validateAuthResponse(await authServer(), clientOf(app), url, 'xyz');
}

export const basicHeader = (id: string, secret: string) => `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

/** A raw POST /oauth/token with a form body (for the malformed requests a real client would never send). */
export const tokenPost = (form: Record<string, string>, headers: Record<string, string> = {}) => request('POST', '/oauth/token', { form, headers });

export { oauth };
