// The OAuth 2.0 provider's endpoints (/oauth/token, /oauth/token/info, /oauth/revoke, /oauth/introspect,
// /.well-known/oauth-authorization-server); each endpoint lives in its own file.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { oauthError } from '../lib/errors.ts';
import { clientIp } from '../lib/rate-limit.ts';
import { readClientCredentials } from './client-auth.ts';
import { discoveryEndpoint } from './discovery.ts';
import { oauthErrorResponse } from './errors.ts';
import { introspectEndpoint } from './introspect.ts';
import { readOAuthInput } from './params.ts';
import { revokeEndpoint } from './revoke.ts';
import { settleAttempt, startAttempt } from './throttle.ts';
import { tokenInfoEndpoint } from './token-info.ts';
import { tokenEndpoint } from './token.ts';

export const oauthRoutes = new Hono<AppEnv>();
oauthRoutes.onError(oauthErrorResponse);

// SPAs call these from other origins with no cookies (no credentials), as GitLab allows since 15.1.
const spaCors = (methods: string[]) => cors({ origin: '*', allowMethods: methods, allowHeaders: ['Authorization', 'Content-Type'], maxAge: 7200 });
oauthRoutes.use('/oauth/token', spaCors(['POST', 'OPTIONS']));
oauthRoutes.use('/oauth/revoke', spaCors(['POST', 'OPTIONS']));
oauthRoutes.use('/oauth/token/info', spaCors(['GET', 'HEAD', 'OPTIONS']));

// OAuth requests are a few short parameters: anything large is malformed.
const smallBody = bodyLimit({
  maxSize: 16 * 1024,
  onError: () => {
    throw oauthError('invalid_request');
  },
});
oauthRoutes.use('/oauth/token', smallBody);
oauthRoutes.use('/oauth/revoke', smallBody);
oauthRoutes.use('/oauth/introspect', smallBody);

// The brute-force throttle (throttle.ts) of the endpoints that authenticate clients. A malformed request (body or
// client credentials) is refused before it is counted: it cannot be a guess.
const throttled = createMiddleware<AppEnv>(async (c, next) => {
  readClientCredentials(c, await readOAuthInput(c));
  startAttempt(c.var.ctx, clientIp(c));
  await next();
  await settleAttempt(c.var.ctx, c.res.ok);
});

oauthRoutes.post('/oauth/token', throttled, tokenEndpoint);
oauthRoutes.get('/oauth/token/info', tokenInfoEndpoint);
oauthRoutes.post('/oauth/revoke', throttled, revokeEndpoint);
oauthRoutes.post('/oauth/introspect', throttled, introspectEndpoint);
oauthRoutes.get('/.well-known/oauth-authorization-server', discoveryEndpoint);
