// Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3): HTTP Basic with
// URL-encoded client_id:client_secret (client_secret_basic), or client_id/client_secret in the body
// (client_secret_post), or client_id alone for public clients (none). Using two methods at once is invalid_request.
import type { Context } from 'hono';
import type { ClientRow } from '../../db/queries/oauth.ts';
import { findApplicationByClientId } from '../applications/service.ts';
import type { AppEnv } from '../lib/context.ts';
import type { RequestContext } from '../lib/context.ts';
import { constantTimeEqual, sha256Hex } from '../lib/crypto.ts';
import { oauthError } from '../lib/errors.ts';
import { passThrottle } from './throttle.ts';

export interface ClientCredentials {
  clientId: string | null;
  clientSecret: string | null;
  method: 'basic' | 'post' | 'none' | null;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** Client ids are printable ASCII (ours are 64 hex characters): anything else cannot name a client. */
const CLIENT_ID = /^[\x21-\x7e]{1,255}$/;

function decodeComponent(v: string) {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    throw oauthError('invalid_client', { challenge: 'Basic' });
  }
}

/** Reads the credentials a request presents; malformed or doubled credentials are rejected here. */
export function readClientCredentials(c: Context<AppEnv>, input: Record<string, unknown>): ClientCredentials {
  const header = c.req.header('authorization');
  const bodyId = str(input.client_id);
  const bodySecret = str(input.client_secret);
  const basic = header && /^basic\s+/i.test(header) ? header.replace(/^basic\s+/i, '').trim() : null;
  if (basic !== null) {
    let decoded: string;
    try {
      decoded = atob(basic);
    } catch {
      throw oauthError('invalid_client', { challenge: 'Basic' });
    }
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthError('invalid_client', { challenge: 'Basic' });
    const clientId = decodeComponent(decoded.slice(0, colon));
    if (!CLIENT_ID.test(clientId)) throw oauthError('invalid_client', { challenge: 'Basic' });
    const clientSecret = decodeComponent(decoded.slice(colon + 1));
    // RFC 6749 §2.3: a client MUST NOT use more than one authentication method per request.
    if (bodySecret !== null || (bodyId !== null && bodyId !== clientId)) throw oauthError('invalid_request');
    return { clientId, clientSecret, method: 'basic' };
  }
  if (bodyId === null) return { clientId: null, clientSecret: null, method: null };
  if (!CLIENT_ID.test(bodyId)) throw oauthError('invalid_client');
  return { clientId: bodyId, clientSecret: bodySecret, method: bodySecret === null ? 'none' : 'post' };
}

/**
 * Checks the credentials against the client row the caller looked up (null when the client id is unknown).
 * Confidential clients need their secret; public clients authenticate with their id (a secret, if sent, must match).
 * Nothing is compared before the request has been counted by the brute-force throttle (throttle.ts).
 */
export async function verifyClient(ctx: RequestContext, creds: ClientCredentials, client: ClientRow | undefined | null): Promise<ClientRow> {
  await passThrottle(ctx);
  const fail = () => oauthError('invalid_client', creds.method === 'basic' ? { challenge: 'Basic' } : {});
  if (!creds.clientId || !client) {
    // Spend the same digest work as a real check, so an unknown client id costs what a wrong secret does.
    await constantTimeEqual(await sha256Hex(creds.clientSecret ?? ''), '');
    throw fail();
  }
  if (creds.clientSecret === null) {
    if (client.confidential) throw fail();
    return client;
  }
  if (!(await constantTimeEqual(await sha256Hex(creds.clientSecret), client.secret_digest))) throw fail();
  return client;
}

/** Looks the client up and authenticates it (one query): for endpoints that need only the client. */
export async function authenticateClient(ctx: RequestContext, creds: ClientCredentials): Promise<ClientRow> {
  const app = creds.clientId ? await findApplicationByClientId(ctx, creds.clientId) : undefined;
  const row: ClientRow | undefined = app
    ? { app_id: app.id, uid: app.uid, secret_digest: app.secretDigest, confidential: app.confidential, app_scopes: app.scopes }
    : undefined;
  return verifyClient(ctx, creds, row);
}
