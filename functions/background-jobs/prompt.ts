// The prompt queues' run after a request (functions/app.ts): the jobs the request enqueued in a queue a user waits on
// (queues.ts `prompt`), run at once as Sidekiq would pick them up. Whatever this run does not finish (a failure
// waiting for its retry, a run cut short) the next run or the cron picks up: the job rows are the truth.
import type { JobContext } from '../housekeeping/service.ts';
import { log } from '../lib/log.ts';
import { PROMPT_QUEUES } from './queues.ts';
import { runJobs } from './runner.ts';

/** Bounds of one prompt run: the follow-ups of one request, not a backlog. */
const PROMPT_MAX_JOBS = 50;
const PROMPT_BUDGET_MS = 20_000;

export async function runPromptly(job: JobContext, requestId: string): Promise<void> {
  try {
    await runJobs(job, { queues: PROMPT_QUEUES, maxJobs: PROMPT_MAX_JOBS, budgetMs: PROMPT_BUDGET_MS });
  } catch (error) {
    log('error', 'prompt jobs failed', { requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
