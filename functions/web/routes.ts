// Server-rendered pages: sign-in/out, OAuth applications, authorized applications, and consent (/oauth/authorize).
// Every page gets the strict headers of security.ts; every POST must come from our own pages (same-origin.tsx) and
// carry its form's CSRF token.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { applicationPages } from './applications.tsx';
import { authorizePages } from './authorize.tsx';
import { sameOriginPosts } from './same-origin.tsx';
import { pageHeaders } from './security.ts';
import { signIn } from './sign-in.tsx';
import { serveStylesheet, STYLESHEET_PATH } from './stylesheet.ts';

export const webRoutes = new Hono<AppEnv>();

// Scoped to the pages' own paths so the headers never touch the API or the OAuth JSON endpoints.
for (const path of [
  '/users/sign_in',
  '/users/sign_out',
  '/oauth/applications',
  '/oauth/applications/*',
  '/oauth/authorized_applications',
  '/oauth/authorized_applications/*',
  '/oauth/authorize',
  '/oauth/authorize/*',
]) {
  webRoutes.use(path, ...pageHeaders, sameOriginPosts);
}
webRoutes.get(STYLESHEET_PATH, serveStylesheet);
webRoutes.route('/', signIn);
webRoutes.route('/', applicationPages);
webRoutes.route('/', authorizePages);
