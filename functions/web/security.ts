// What every page shares: security headers (hono's secureHeaders), the signed-in user and the CSRF checks, and the
// one rule for where a sign-in may send the browser back to.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../lib/context.ts';
import { constantTimeEqual, randomToken } from '../lib/crypto.ts';
import { noStore } from '../lib/no-store.ts';
import { csrfTokenFor, currentSession, validCsrf } from '../lib/session.ts';

export const CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

export const cspString = (formAction: string[] = ["'self'"]) =>
  `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction.join(' ')}; frame-ancestors 'none'; base-uri 'none'`;

/**
 * Strict headers on every page. `overwrite: false` lets the consent page widen `form-action` to its redirect URI's
 * origin (browsers apply form-action to the redirect that follows a form submission).
 */
export const pageHeaders = [
  secureHeaders({
    contentSecurityPolicy: CSP_DIRECTIVES,
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    crossOriginOpenerPolicy: 'same-origin',
    overwrite: false,
  }),
  noStore,
] as const;

/** The signed-in user with the session's CSRF token, or null. */
export async function pageUser(c: Context<AppEnv>) {
  const session = await currentSession(c);
  if (!session || session.user.state !== 'active') return null;
  return { user: session.user, session: session.value, csrf: await csrfTokenFor(session.value) };
}
export type PageUser = NonNullable<Awaited<ReturnType<typeof pageUser>>>;

/** The form's `authenticity_token` (or `X-CSRF-Token`) matches the session's. */
export async function sessionCsrfOk(c: Context<AppEnv>, sessionValue: string, form: Record<string, string | string[]>) {
  return validCsrf(sessionValue, field(form, 'authenticity_token') ?? c.req.header('x-csrf-token'));
}

// Signed-out forms (sign-in) have no session to derive a token from: a double-submit cookie instead.
export const SIGN_IN_CSRF_COOKIE = '_gitlab_signin_csrf';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const secureFor = (c: Context<AppEnv>) => {
  const url = new URL(c.req.url);
  return !(LOOPBACK.has(url.hostname) && url.protocol === 'http:');
};

/** The sign-in form's token: the cookie's value when present, else a new one (set on the response). */
export function signInCsrfToken(c: Context<AppEnv>): string {
  const existing = getCookie(c, SIGN_IN_CSRF_COOKIE);
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  setCookie(c, SIGN_IN_CSRF_COOKIE, token, { httpOnly: true, secure: secureFor(c), sameSite: 'Lax', path: '/users' });
  return token;
}

export async function signInCsrfOk(c: Context<AppEnv>, presented: unknown) {
  const cookie = getCookie(c, SIGN_IN_CSRF_COOKIE);
  return !!cookie && typeof presented === 'string' && presented !== '' && (await constantTimeEqual(cookie, presented));
}

/**
 * Where to go after signing in: only a path of this site (one leading `/`, not `//` or `/\`, no whitespace or
 * control characters a browser would strip), resolving to our own origin. Anything else is the fallback.
 */
export function safeReturnTo(value: unknown, fallback = '/oauth/applications'): string {
  if (typeof value !== 'string' || value.length > 4096) return fallback;
  if (!/^\/(?![/\\])/.test(value) || /[\s\u0000-\u001f\u007f-\u009f\\]/.test(value)) return fallback;
  try {
    const base = 'https://same-origin.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return value;
}

/** The form body of a POST (strings only). */
export async function readForm(c: Context<AppEnv>): Promise<Record<string, string | string[]>> {
  const out: Record<string, string | string[]> = {};
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return out;
  const form = await c.req.formData().catch(() => null);
  form?.forEach((v, k) => {
    if (typeof v !== 'string') return;
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  });
  return out;
}

/** One string field (the last value when repeated). */
export const field = (form: Record<string, string | string[]>, name: string): string | undefined => {
  const v = form[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
};
