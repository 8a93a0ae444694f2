// Username-or-email + password, the one check behind the sign-in page and the OAuth password grant, with the
// brute-force limits of lib/rate-limit.ts. Every failure looks the same to the caller.
import { sql } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { verifyPassword } from '../lib/crypto.ts';
import { ACCOUNT_FAILURE_LIMIT, clearAttempts, limitByIp, recordAttempt, releaseIpAttempt } from '../lib/rate-limit.ts';

export type PasswordCheck = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'locked' };

/**
 * Throws rate_limited when the IP is over its limit (`ipCountsFailuresOnly`: a success takes its count back). A locked account answers `locked` without
 * checking the password; a wrong password, an unknown login and a blocked user all answer `invalid` after the
 * same password-hash work.
 */
export async function checkPassword(
  ctx: RequestContext,
  ip: string,
  login: string,
  password: string,
  o: { ipCountsFailuresOnly?: boolean } = {},
): Promise<PasswordCheck> {
  const attempt = await limitByIp(ctx, ip);
  // A login no account can have (control characters, absurd length) is simply invalid; it never reaches the database.
  if (login.length > 255 || /[\u0000-\u001f\u007f]/.test(login)) return { ok: false, reason: 'invalid' };
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${login}) OR lower(${users.email}) = lower(${login})`)
    .limit(1);
  // The attempt is counted before the password is looked at (one atomic upsert), so parallel guesses cannot all
  // slip in under the limit; a success clears the counter. One counter per account, whichever login was typed.
  const key = user ? { userId: user.id } : { login };
  const { count } = await recordAttempt(ctx, key);
  if (count > ACCOUNT_FAILURE_LIMIT) return { ok: false, reason: 'locked' };
  // verifyPassword runs the KDF against a dummy hash when there is no user, so timing does not tell.
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid || user.state !== 'active') return { ok: false, reason: 'invalid' };
  await clearAttempts(ctx, key);
  if (o.ipCountsFailuresOnly) await releaseIpAttempt(ctx, attempt);
  return { ok: true, user };
}
