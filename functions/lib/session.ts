// Browser sessions: a random id in an HttpOnly cookie, only its digest in the database. The CSRF token of a session
// is derived from the session id (SHA-256 with a label), so it needs no storage and cannot be made without the cookie.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { deleteSessionByDigest, findSessionByDigest, insertSession } from '../../db/queries/lib/sessions.ts';
import type { AppEnv } from './context.ts';
import type { RequestContext } from './context.ts';
import { constantTimeEqual, randomToken, sha256Hex } from './crypto.ts';

export const SESSION_COOKIE = '_gitlab_session';
const SESSION_TTL_SECONDS = 7 * 24 * 3600;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Secure cookies everywhere except plain-http loopback development. */
const secureFor = (c: Context<AppEnv>) => !(LOOPBACK.has(new URL(c.req.url).hostname) && new URL(c.req.url).protocol === 'http:');

export async function startSession(c: Context<AppEnv>, userId: number): Promise<string> {
  const value = randomToken();
  await insertSession(c.var.ctx.db, { digest: await sha256Hex(value), userId, expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000) });
  setCookie(c, SESSION_COOKIE, value, { httpOnly: true, secure: secureFor(c), sameSite: 'Lax', path: '/', maxAge: SESSION_TTL_SECONDS });
  return value;
}

export async function endSession(c: Context<AppEnv>) {
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await deleteSessionByDigest(c.var.ctx.db, await sha256Hex(value));
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secureFor(c) });
}

/** The signed-in user of this browser, if any (with the raw session value, for CSRF checks). */
export async function currentSession(c: Context<AppEnv>, ctx: RequestContext = c.var.ctx) {
  const value = getCookie(c, SESSION_COOKIE);
  if (!value) return null;
  const found = await findSessionByDigest(ctx.db, await sha256Hex(value));
  return found ? { ...found, value } : null;
}

/** The CSRF token for forms and `X-CSRF-Token` of the session whose cookie value is `sessionValue`. */
export const csrfTokenFor = async (sessionValue: string) => sha256Hex(`csrf:${sessionValue}`);

export async function validCsrf(sessionValue: string, presented: string | undefined | null) {
  return !!presented && constantTimeEqual(await csrfTokenFor(sessionValue), presented);
}
