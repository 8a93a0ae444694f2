// Page POSTs are accepted only from our own pages: hono's csrf middleware reads what the browser says about where
// the form was (Sec-Fetch-Site, Origin) and refuses another site's, whatever token it carries. Every form still
// checks its CSRF token too; a refusal here shows the same Forbidden page.
// "Ours" is the origin the request was sent to, as Rails' forgery protection compares Origin with request.base_url
// (`npm start` answers on localhost and 127.0.0.1 alike), or PUBLIC_URL's (behind a proxy that ends TLS the request
// reaches us as http). A cross-site POST names the other site's origin, never ours.
import { csrf } from 'hono/csrf';
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { ErrorPage } from './layout.tsx';

const isOurOrigin = (c: Context<AppEnv>, origin: string | undefined) =>
  origin !== undefined && (origin === new URL(c.req.url).origin || origin === new URL(c.var.ctx.config.publicUrl).origin);

const fromOurPages = csrf({
  // Browsers mark our own forms `same-origin`. Their Origin is `null` (the pages are Referrer-Policy no-referrer) or
  // ours; any other Origin contradicts the header and is refused.
  secFetchSite: (site, c) => {
    const origin = c.req.header('origin');
    return site === 'same-origin' && (origin === undefined || origin === 'null' || isOurOrigin(c, origin));
  },
  // A browser without Fetch metadata: its Origin must be ours. Sec-Fetch-Site present (not same-origin) vetoes.
  origin: (origin, c) => isOurOrigin(c, origin) && c.req.header('sec-fetch-site') === undefined,
});

export const sameOriginPosts = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await fromOurPages(c, next);
  } catch (error) {
    // Only the refusal itself lands here: the handlers' own errors are handled at their level by the app's onError.
    if (!(error instanceof HTTPException) || error.status !== 403) throw error;
    return c.html(<ErrorPage title="Forbidden" message="Your session has expired or the form is invalid. Please reload the page and try again." />, 403);
  }
});
