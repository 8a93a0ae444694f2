// Archive requests are limited, as GitLab limits them (Gitlab::RateLimitHelpers#archive_rate_limit_reached?, the
// ApplicationRateLimiter's `project_repositories_archive`: 5 a minute per project and caller, 100 a minute per project
// for anonymous callers together; lib/api/repositories.rb answers 429 with ARCHIVE_RATE_LIMIT_REACHED_MESSAGE). The
// caller here is the client's IP (CF-Connecting-IP): each IP may ask a project for 5 archives a minute, signed in or
// not, and anonymous callers share GitLab's 100 a minute per project besides. Counted after the policy check (the
// route's `authorize! :download_code` comes first) and before any archive work, cached or not.
import { countEvents } from '../../../db/queries/lib/rate-limits.ts';
import type { RequestContext } from '../../lib/context.ts';
import { rateLimited } from '../../lib/errors.ts';

export const ARCHIVE_LIMIT = 5;
export const ANONYMOUS_ARCHIVE_LIMIT = 100;
const WINDOW_SECONDS = 60;
const MESSAGE = 'This archive has been requested too many times. Try again later.';

export async function throttleArchive(ctx: RequestContext, projectId: number, ip: string) {
  const ipKey = `archive:${projectId}:ip:${ip}`;
  const anonymousKey = `archive:${projectId}:anonymous`;
  const counted = await countEvents(ctx.db, ctx.actor.user ? [ipKey] : [ipKey, anonymousKey], WINDOW_SECONDS);
  const over = counted.filter((e) => e.count > (e.key === anonymousKey ? ANONYMOUS_ARCHIVE_LIMIT : ARCHIVE_LIMIT));
  if (over.length) {
    const retryAfter = Math.max(...over.map((e) => Math.max(1, Math.ceil((e.resetAt.getTime() - Date.now()) / 1000))));
    throw rateLimited(retryAfter, { error: MESSAGE });
  }
}
