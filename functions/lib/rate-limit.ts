// Brute-force limits for sign-in, the password grant and OAuth client authentication, in the database so every isolate
// sees the same counters:
//  - per account: more than 10 attempts without a success in 10 minutes lock the account for the rest of the window
//    (attempts are counted before the password is checked, so parallel guesses cannot race past it; unknown usernames are
//    counted the same way, so the answer never tells whether an account exists);
//  - per client IP: at most 30 attempts a minute, then 429 with Retry-After; git over HTTP, whose every request signs
//    in again, counts only the failed ones (GitLab's Gitlab::Auth::IpRateLimiter), so a CI machine cloning with a
//    password is not throttled by its own successes;
//  - OAuth clients (/oauth/token, /oauth/revoke, /oauth/introspect): at most 30 failed requests a minute per client IP,
//    then 429 with Retry-After. Each request is counted before any secret is compared and a success takes its count
//    back, so only failures (of client authentication or of the grant) add up. Not per client id: the id is public,
//    so a stranger's failures would lock the application out for all its users (issue 28); a per-(client, IP) count
//    could never pass the per-IP one first. Client secrets are 32 random bytes: guessing them from many addresses
//    is hopeless anyway.
import type { Context } from 'hono';
import { countEvent, resetCount, uncountEvents, type CountedEvent } from '../../db/queries/lib/rate-limits.ts';
import type { AppEnv } from './context.ts';
import type { RequestContext } from './context.ts';
import { rateLimited } from './errors.ts';

export const ACCOUNT_FAILURE_LIMIT = 10;
export const ACCOUNT_WINDOW_SECONDS = 600;
export const IP_ATTEMPT_LIMIT = 30;
export const IP_WINDOW_SECONDS = 60;
export const CLIENT_FAILURE_LIMIT = 30;
export const CLIENT_WINDOW_SECONDS = 60;

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
export { clientIp } from './request-path.ts';

const secondsUntil = (resetAt: Date) => Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));

/** Counts an attempt from this IP; past the limit throws rate_limited, retry after the seconds left in the window. */
export async function limitByIp(ctx: RequestContext, ip: string): Promise<CountedEvent> {
  const counted = await countEvent(ctx.db, `signin:ip:${ip}`, IP_WINDOW_SECONDS);
  if (counted.count > IP_ATTEMPT_LIMIT) throw rateLimited(secondsUntil(counted.resetAt));
  return counted;
}

/** Leases are counters under this prefix; the cron keeps them for LEASE_MAX_SECONDS (not an hour, as other counters). */
export const LEASE_PREFIX = 'lease:';
export const LEASE_MAX_SECONDS = 86_400;

/**
 * GitLab's Gitlab::ExclusiveLease#try_obtain: true for the first caller of `key` in a window of `seconds` (at most
 * LEASE_MAX_SECONDS), false for every other one until the window ends.
 */
export async function takeLease(ctx: RequestContext, key: string, seconds: number): Promise<boolean> {
  return (await countEvent(ctx.db, `${LEASE_PREFIX}${key}`, Math.min(seconds, LEASE_MAX_SECONDS))).count === 1;
}

/** Takes an attempt's count back (git's password sign-ins count only when they fail). */
export const releaseIpAttempt = (ctx: RequestContext, counted: CountedEvent) => uncountEvents(ctx.db, [counted]);

/** Counts an OAuth client request against its IP. */
export const countClientAttempt = (ctx: RequestContext, ip: string) => countEvent(ctx.db, `oauth:ip:${ip}`, CLIENT_WINDOW_SECONDS);

/** Past the limit throws rate_limited, retry after the window ends. */
export function assertClientUnderLimit(counted: CountedEvent) {
  if (counted.count > CLIENT_FAILURE_LIMIT) throw rateLimited(secondsUntil(counted.resetAt));
}

/** A successful request takes its count back. */
export const releaseClientAttempt = (ctx: RequestContext, counted: CountedEvent) => uncountEvents(ctx.db, [counted]);

export const recordAttempt = (ctx: RequestContext, key: AccountKey) => countEvent(ctx.db, accountKey(key), ACCOUNT_WINDOW_SECONDS);
export const clearAttempts = (ctx: RequestContext, key: AccountKey) => resetCount(ctx.db, accountKey(key));
