// A periodic task for long-running processes (the Node entry; Workers have cron triggers instead): a first run
// shortly after start, then one every interval, measured from the start of the previous run. Runs never overlap: the
// next one is scheduled only when the current one has settled, and starts at once if it took longer than the interval.

export interface TimerOptions {
  intervalMs: number;
  firstDelayMs: number;
  /** Called with what a run threw; the timer goes on. */
  onError: (error: unknown) => void;
}

export interface Timer {
  /** No further run starts; resolves when the one in progress (if any) has finished. */
  stop(): Promise<void>;
}

export function startTimer(task: () => Promise<unknown>, options: TimerOptions): Timer {
  let stopped = false;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    pending = setTimeout(run, delayMs);
    // The timer alone never keeps the process alive (the server does).
    pending.unref?.();
  };
  function run() {
    pending = undefined;
    const started = Date.now();
    running = task()
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(Math.max(0, options.intervalMs - (Date.now() - started)));
      });
  }

  schedule(options.firstDelayMs);
  return {
    async stop() {
      stopped = true;
      if (pending !== undefined) clearTimeout(pending);
      pending = undefined;
      await running;
    },
  };
}
