// Brute-force limits for sign-in and the password grant, in the database so every isolate sees the same counters:
//  - per account: more than 10 attempts without a success in 10 minutes lock the account for the rest of the window
//    (attempts are counted before the password is checked, so parallel guesses cannot race past it; unknown usernames are
//    counted the same way, so the answer never tells whether an account exists);
//  - per client IP: at most 30 attempts a minute, then 429 with Retry-After.
import type { Context } from 'hono';
import { countEvent, resetCount } from '../../db/queries/rate-limits.ts';
import type { AppEnv } from './context.ts';
import type { RequestContext } from './context.ts';
import { rateLimited } from './errors.ts';

export const ACCOUNT_FAILURE_LIMIT = 10;
export const ACCOUNT_WINDOW_SECONDS = 600;
export const IP_ATTEMPT_LIMIT = 30;
export const IP_WINDOW_SECONDS = 60;

/**
 * The account's counter: by user id once the login names a user (its username and its email share one counter), by
 * the typed login otherwise (unknown logins are counted and locked the same way).
 */
export type AccountKey = { userId: number } | { login: string };
const accountKey = (key: AccountKey) => ('userId' in key ? `signin:user:${key.userId}` : `signin:login:${key.login.trim().toLowerCase()}`);

/**
 * The caller's IP as Cloudflare reports it (`CF-Connecting-IP` is set by the edge and cannot be forged through it);
 * without it (Node, tests) every caller shares one bucket. Client-supplied headers such as X-Real-IP are not trusted.
 */
export const clientIp = (c: Context<AppEnv>) => c.req.header('cf-connecting-ip') ?? 'unknown';

/** Counts an attempt from this IP; past the limit throws rate_limited, retry after the seconds left in the window. */
export async function limitByIp(ctx: RequestContext, ip: string) {
  const { count, resetAt } = await countEvent(ctx.db, `signin:ip:${ip}`, IP_WINDOW_SECONDS);
  if (count > IP_ATTEMPT_LIMIT) throw rateLimited(Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)));
}

export const recordAttempt = (ctx: RequestContext, key: AccountKey) => countEvent(ctx.db, accountKey(key), ACCOUNT_WINDOW_SECONDS);
export const clearAttempts = (ctx: RequestContext, key: AccountKey) => resetCount(ctx.db, accountKey(key));
