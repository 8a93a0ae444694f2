// GitLab's TimeboxReportService (13.6): a milestone's or iteration's burnup, replayed from the issues' resource events
// (what was in the timebox on each day, not what is in it now). Pure: the events in, the report out.
import type { TimeboxReportEvent } from '../../db/queries/issues/resource-events.ts';

export interface DailyTotals {
  date: string;
  scopeCount: number;
  scopeWeight: number;
  completedCount: number;
  completedWeight: number;
}

type Metrics = { count: number; weight: number };
export interface TimeboxReport {
  burnupTimeSeries: DailyTotals[];
  stats: { complete: Metrics; incomplete: Metrics; total: Metrics } | null;
}

/** GitLab's EVENT_COUNT_LIMIT: above it the chart is refused. */
export const EVENT_COUNT_LIMIT = 50_000;

/**
 * Replays `events` (time order) for timebox `timeboxId` starting `startDate`: one row per day on which a total changed
 * (days before the start count as the start), each carrying the totals of the day before forward.
 */
export function burnup(events: readonly TimeboxReportEvent[], timeboxId: number, startDate: string): TimeboxReport {
  const issues = new Map<number, { timebox: number | null; weight: number; closed: boolean }>();
  const series: DailyTotals[] = [];
  let totals: DailyTotals = { date: startDate, scopeCount: 0, scopeWeight: 0, completedCount: 0, completedWeight: 0 };
  const apply = (day: string, change: Partial<Omit<DailyTotals, 'date'>>) => {
    const date = day < startDate ? startDate : day;
    const last = series.at(-1);
    if (!last || last.date !== date) {
      totals = { ...totals, date };
      series.push(totals);
    }
    totals.scopeCount += change.scopeCount ?? 0;
    totals.scopeWeight += change.scopeWeight ?? 0;
    totals.completedCount += change.completedCount ?? 0;
    totals.completedWeight += change.completedWeight ?? 0;
  };
  for (const e of events) {
    let issue = issues.get(e.issueId);
    if (!issue) issues.set(e.issueId, (issue = { timebox: null, weight: 0, closed: false }));
    const inTimebox = issue.timebox === timeboxId;
    if (e.kind === 'timebox') {
      const adds = e.action === 'add' && e.timeboxId === timeboxId;
      if (adds && !inTimebox) {
        apply(e.day, { scopeCount: 1, scopeWeight: issue.weight, ...(issue.closed ? { completedCount: 1, completedWeight: issue.weight } : {}) });
      } else if (!adds && inTimebox) {
        // Any other add (a different timebox) or a remove takes the issue out.
        apply(e.day, { scopeCount: -1, scopeWeight: -issue.weight, ...(issue.closed ? { completedCount: -1, completedWeight: -issue.weight } : {}) });
      }
      issue.timebox = e.action === 'add' ? e.timeboxId : null;
    } else if (e.kind === 'state') {
      const closed = e.state === 'closed';
      if (inTimebox && closed !== issue.closed) {
        const sign = closed ? 1 : -1;
        apply(e.day, { completedCount: sign, completedWeight: sign * issue.weight });
      }
      issue.closed = closed;
    } else {
      const weight = e.weight ?? 0;
      const delta = weight - issue.weight;
      if (inTimebox && delta) apply(e.day, { scopeWeight: delta, ...(issue.closed ? { completedWeight: delta } : {}) });
      issue.weight = weight;
    }
  }
  const last = series.at(-1);
  return {
    burnupTimeSeries: series,
    stats: last
      ? {
          complete: { count: last.completedCount, weight: last.completedWeight },
          incomplete: { count: last.scopeCount - last.completedCount, weight: last.scopeWeight - last.completedWeight },
          total: { count: last.scopeCount, weight: last.scopeWeight },
        }
      : null,
  };
}
