// Responses that carry a secret shown once (a new token, a client secret) must not be kept by a browser or proxy
// cache. The same headers as the OAuth token responses (RFC 6749 §5.1).
import { createMiddleware } from 'hono/factory';
import type { AppEnv, RequestContext } from './context.ts';

/** The headers, for responses built by hand. */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** Sets them on a response already built. */
export const setNoStore = (headers: Headers) => {
  for (const [name, value] of Object.entries(NO_STORE)) headers.set(name, value);
};

/** Route middleware: whatever the handler answers (the secret or an error) goes out uncacheable. */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  setNoStore(c.res.headers);
});

const SECRET_SHOWN = 'response:secret-shown';

/**
 * For answers assembled from many resolvers (GraphQL): the resolver that puts a secret in the answer notes it, and
 * the transport sends the answer no-store (secretShown). Returns the value.
 */
export function showSecret<T>(ctx: RequestContext, value: T): T {
  if (value !== null && value !== undefined) ctx.memo.set(SECRET_SHOWN, true);
  return value;
}

export const secretShown = (ctx: RequestContext) => ctx.memo.has(SECRET_SHOWN);
