// Username-or-email + password, the one check behind the sign-in page and the OAuth password grant, with the
// brute-force limits of lib/rate-limit.ts. Every failure looks the same to the caller.
import { sql } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { verifyPassword } from '../lib/crypto.ts';
import { accountLocked, clearFailures, limitByIp, recordFailure } from '../lib/rate-limit.ts';

export type PasswordCheck = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'locked' };

/**
 * Throws 429 (with `rateLimitBody`) when the IP is over its limit. A locked account answers `locked` without
 * checking the password; a wrong password, an unknown login and a blocked user all answer `invalid` after the
 * same password-hash work.
 */
export async function checkPassword(ctx: RequestContext, ip: string, login: string, password: string, rateLimitBody?: Record<string, unknown>): Promise<PasswordCheck> {
  await limitByIp(ctx, ip, rateLimitBody);
  if (await accountLocked(ctx, login)) return { ok: false, reason: 'locked' };
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${login}) OR lower(${users.email}) = lower(${login})`)
    .limit(1);
  // verifyPassword runs the KDF against a dummy hash when there is no user, so timing does not tell.
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid || user.state !== 'active') {
    await recordFailure(ctx, login);
    return { ok: false, reason: 'invalid' };
  }
  await clearFailures(ctx, login);
  return { ok: true, user };
}
