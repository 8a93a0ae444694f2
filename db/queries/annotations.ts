// Metrics dashboard annotations (GitLab 13.6 Metrics::Dashboard::Annotation, Metrics::Dashboard::AnnotationsFinder).
import { and, asc, gte, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { metricsDashboardAnnotations, type AnnotationRow } from '../schema/index.ts';

export type NewAnnotation = Pick<AnnotationRow, 'environmentId' | 'dashboardPath' | 'description' | 'startingAt' | 'endingAt'>;

export async function insertAnnotation(db: Db, values: NewAnnotation): Promise<AnnotationRow> {
  const [row] = await db.insert(metricsDashboardAnnotations).values(values).returning();
  return row!;
}

export interface AnnotationWindow {
  environmentId: number;
  dashboardPath: string;
  /** starting_at >= from */
  from: Date;
  /** ending_at <= to, when given and not before `from` (AnnotationsFinder#valid_timespan_boundaries?) */
  to?: Date | undefined;
}

/** AnnotationsFinder for several dashboards at once: each window's annotations by id, in one statement per path set. */
export async function annotationsIn(db: Db, windows: readonly AnnotationWindow[]): Promise<AnnotationRow[][]> {
  if (!windows.length) return [];
  const found = await db
    .select()
    .from(metricsDashboardAnnotations)
    .where(
      and(
        inArray(metricsDashboardAnnotations.environmentId, [...new Set(windows.map((w) => w.environmentId))]),
        inArray(metricsDashboardAnnotations.dashboardPath, [...new Set(windows.map((w) => w.dashboardPath))]),
        gte(metricsDashboardAnnotations.startingAt, new Date(Math.min(...windows.map((w) => w.from.getTime())))),
      ),
    )
    .orderBy(asc(metricsDashboardAnnotations.id));
  return windows.map((w) =>
    found.filter(
      (a) =>
        a.environmentId === w.environmentId &&
        a.dashboardPath === w.dashboardPath &&
        a.startingAt >= w.from &&
        (w.to === undefined || w.to < w.from || (a.endingAt !== null && a.endingAt <= w.to)),
    ),
  );
}
