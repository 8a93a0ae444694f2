// The OAuth 2.0 provider's endpoints (/oauth/token, /oauth/token/info, /oauth/revoke, /oauth/introspect,
// /.well-known/oauth-authorization-server); each endpoint lives in its own file.
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

export const oauthRoutes = new Hono<AppEnv>();
