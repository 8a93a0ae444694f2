// POST /oauth/token (RFC 6749 §3.2): form or JSON body; dispatches to one module per grant type.
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { oauthError } from '../lib/errors.ts';
import { isFeatureEnabled } from '../features/evaluate.ts';
import { readClientCredentials } from './client-auth.ts';
import { authorizationCodeGrant } from './grants/authorization-code.ts';
import { passwordGrant } from './grants/password.ts';
import { refreshTokenGrant } from './grants/refresh-token.ts';
import { readOAuthInput, requiredParam } from './params.ts';

const GRANTS = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  password: passwordGrant,
} as const;

export async function tokenEndpoint(c: Context<AppEnv>) {
  const input = await readOAuthInput(c);
  const grantType = requiredParam(input, 'grant_type');
  const creds = readClientCredentials(c, input);
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType as keyof typeof GRANTS] : undefined;
  if (!grant) throw oauthError('unsupported_grant_type');
  // The instance switch (feature flag `oauth_password_grant`, on by default), as Doorkeeper's `grant_flows`.
  if (grantType === 'password' && !(await isFeatureEnabled(c.var.ctx, 'oauth_password_grant'))) throw oauthError('unsupported_grant_type');
  return grant(c, input, creds);
}
