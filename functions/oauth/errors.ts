// The OAuth endpoints' one error mapping (oauthRoutes.onError): their own refusals are OAuthErrors, already in
// RFC 6749's words; a service's DomainError that reaches them is worded here, never with a REST body. Every answer
// is `Cache-Control: no-store`. Anything else is unexpected and goes on to app.ts (logged, 500, no-store).
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { isDomainError, OAuthError } from '../lib/errors.ts';
import { NO_STORE } from '../lib/no-store.ts';

export function oauthErrorResponse(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof OAuthError) return c.json(error.body, error.status, error.headers);
  // The brute-force limits (the password grant's in users/authenticate.ts, the clients' in throttle.ts), in
  // Doorkeeper's words.
  if (isDomainError(error, 'rate_limited')) {
    return c.json({ error: 'too_many_requests', error_description: 'Too many requests. Retry later.' }, 429, {
      ...NO_STORE,
      'Retry-After': String(error.problem.retryAfter),
    });
  }
  throw error;
}
