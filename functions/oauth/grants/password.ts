// grant_type=password (RFC 6749 §4.3; legacy, on by the spec): the client authenticates (Basic or body), the
// user's password goes through the same brute-force limits as the sign-in page. Default scope `api`, limited to
// the application's scopes.
import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context.ts';
import { oauthError } from '../../lib/errors.ts';
import { clientIp } from '../../lib/rate-limit.ts';
import { checkPassword } from '../../users/authenticate.ts';
import { authenticateClient, type ClientCredentials } from '../client-auth.ts';
import { optionalParam, requiredParam } from '../params.ts';
import { parseScopes, resolveRequestedScopes } from '../scopes.ts';
import { canBeGranted, issueTokens, tokenResponse } from '../service.ts';

export async function passwordGrant(c: Context<AppEnv>, input: Record<string, unknown>, creds: ClientCredentials) {
  const ctx = c.var.ctx;
  const username = requiredParam(input, 'username');
  const password = requiredParam(input, 'password');
  // ROPC requires real client authentication (security-bar §0.7): a client id alone (public client) is not enough.
  if (creds.clientSecret === null) throw oauthError('invalid_client', creds.method === 'basic' ? { challenge: 'Basic' } : {});
  const client = await authenticateClient(ctx, creds);
  const scopes = resolveRequestedScopes(parseScopes(optionalParam(input, 'scope')), client.app_scopes);
  if (!scopes) throw oauthError('invalid_scope');
  const check = await checkPassword(ctx, clientIp(c), username, password);
  if (!check.ok || !canBeGranted(check.user)) throw oauthError('invalid_grant');
  const issued = await issueTokens(ctx.db, { applicationId: client.app_id, userId: check.user.id, scopes });
  return tokenResponse(c, issued);
}
