// GET /.well-known/oauth-authorization-server (RFC 8414). The issuer is the configured public URL, never the Host
// header. Only what is served is advertised: OpenID Connect's scopes (openid, profile, email) stay grantable, as
// GitLab's applications register them, but without an id_token, userinfo, keys or discovery document a relying party
// that reads them here would start a flow that cannot finish.
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { areFeaturesEnabled } from '../features/evaluate.ts';
import { OAUTH_SCOPE_NAMES, OIDC_SCOPES } from './scopes.ts';

export async function discoveryEndpoint(c: Context<AppEnv>) {
  const issuer = c.var.ctx.config.publicUrl;
  // Flows switched off by their feature flags are not advertised.
  const [implicit, password] = await areFeaturesEnabled(c.var.ctx, ['oauth_implicit_grant', 'oauth_password_grant']);
  return c.json({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    scopes_supported: OAUTH_SCOPE_NAMES.filter((s) => !OIDC_SCOPES.has(s)),
    response_types_supported: implicit ? ['code', 'token'] : ['code'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', ...(implicit ? ['implicit'] : []), ...(password ? ['password'] : []), 'refresh_token'],
    code_challenge_methods_supported: ['S256', 'plain'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  });
}
