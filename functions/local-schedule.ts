// `npm start`'s stand-in for the Worker's cron trigger (wrangler.toml `crons = ["*/15 * * * *"]`): the same scheduled
// work (runScheduledWork, which the Worker's scheduled() runs: the periodic jobs enqueued, then the background job
// queue run) on a timer, so purges, retention, membership expiry and mail happen locally as on the Worker.
// Once shortly after start, then every 15 minutes; never two runs at once. Each run ends with `analyze` when given
// (the embedded database's ANALYZE): PGlite has no autovacuum, so without it the planner's statistics would stay
// those of an empty database and a large push would leave plans that scan what they should look up.
import type { DatabaseProvider } from '../db/client.ts';
import { runScheduledWork } from './background-jobs/scheduled.ts';
import type { Config } from './lib/context.ts';
import { startTimer, type Timer } from './lib/timer.ts';

export const SCHEDULE_INTERVAL_MS = 15 * 60_000;
export const FIRST_RUN_DELAY_MS = 10_000;

/** Starts the timer; `stop()` before closing the database (it waits for a run in progress). */
export function startLocalSchedule(
  provider: DatabaseProvider,
  options: { intervalMs?: number; firstDelayMs?: number; config?: Config; analyze?: () => Promise<unknown> } = {},
): Timer {
  return startTimer(
    async () => {
      // What the run hands to waitUntil (the Worker's ctx.waitUntil) is awaited before the run counts as done.
      const pending: Promise<unknown>[] = [];
      try {
        await runScheduledWork(
          provider.open({ queries: 0, ms: 0 }, (p) => pending.push(p)),
          'local timer',
          options.config,
        );
      } finally {
        await Promise.allSettled(pending);
        await options.analyze?.();
      }
    },
    {
      intervalMs: options.intervalMs ?? SCHEDULE_INTERVAL_MS,
      firstDelayMs: options.firstDelayMs ?? FIRST_RUN_DELAY_MS,
      // runScheduledWork has logged it; the next run comes at its time.
      onError: () => undefined,
    },
  );
}
