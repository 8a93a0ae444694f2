// The brute-force throttle of the endpoints that authenticate clients (/oauth/token, /oauth/revoke,
// /oauth/introspect; RFC 6749 §2.3.1: endpoints taking client secrets must resist brute force), on lib/rate-limit.ts's
// counters. Every request is counted against its client IP before any secret or grant is compared (one atomic upsert:
// parallel guesses cannot slip under the limit); a success takes its count back, so only failed client
// authentication and failed grants add up and successful clients are never throttled. Never per client id alone
// (public: anyone could lock an application out, lib/rate-limit.ts). Past the limit the answer is 429 with
// Retry-After, worded as the password grant's limit (errors.ts).
// The count runs alongside the endpoint's own lookup and verifyClient (or introspection's bearer check) waits for it
// before comparing, so a success costs no extra round trip; the token grants fold the give-back into their own write.
import type { CountedEvent } from '../../db/queries/lib/rate-limits.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertClientUnderLimit, countClientAttempt, releaseClientAttempt } from '../lib/rate-limit.ts';

const ATTEMPT = 'oauth:attempt';

interface Attempt {
  counted: Promise<CountedEvent>;
  /** The endpoint's own statement takes the count back if it succeeds. */
  handedOver: boolean;
}

/** Starts counting this request (routes.ts, before the endpoint runs); the endpoint goes on meanwhile. */
export function startAttempt(ctx: RequestContext, ip: string) {
  const attempt: Attempt = { counted: countClientAttempt(ctx, ip), handedOver: false };
  // settleAttempt awaits it; this keeps a failed count from being reported unhandled while the endpoint runs.
  attempt.counted.catch(() => undefined);
  ctx.memo.set(ATTEMPT, attempt);
}

/** After the endpoint answered: the count is complete, and a success takes it back. */
export async function settleAttempt(ctx: RequestContext, succeeded: boolean) {
  const attempt = ctx.memo.get(ATTEMPT) as Attempt | undefined;
  if (!attempt) return;
  const counted = await attempt.counted;
  if (succeeded && !attempt.handedOver) await releaseClientAttempt(ctx, counted);
}

/** Waits for this request to be counted; past a limit, 429. Call before comparing any secret. */
export async function passThrottle(ctx: RequestContext) {
  const attempt = ctx.memo.get(ATTEMPT) as Attempt | undefined;
  if (attempt) assertClientUnderLimit(await attempt.counted);
}

/** The count for a success's own statement to take back (uncountEventsSql), so the give-back costs no round trip. */
export async function handOverCount(ctx: RequestContext): Promise<CountedEvent[]> {
  const attempt = ctx.memo.get(ATTEMPT) as Attempt | undefined;
  if (!attempt) return [];
  attempt.handedOver = true;
  return [await attempt.counted];
}
