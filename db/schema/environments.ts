// Environments a project deploys to (made by jobs' `environment:` or through the API), the deployments jobs record
// into them, and the metrics-dashboard annotations attached to an environment (GitLab 13.6).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { ciBuilds } from './ci.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const environments = pgTable(
  'environments',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Gitlab::Slug::Environment: lowercase, [a-z0-9-], at most 24 characters, unique per project. */
    slug: text('slug').notNull(),
    externalUrl: text('external_url'),
    /** The folder part of `review/feature` (Environment#environment_type). */
    environmentType: text('environment_type'),
    state: text('state').$type<'available' | 'stopped'>().notNull().default('available'),
    ...timestamps,
  },
  (t) => [
    unique('environments_project_id_name_key').on(t.projectId, t.name),
    unique('environments_project_id_slug_key').on(t.projectId, t.slug),
    check('environments_state', sql`${t.state} IN ('available', 'stopped')`),
    check('environments_name_length', sql`char_length(${t.name}) <= 255`),
  ],
);

export const deployments = pgTable(
  'deployments',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    ref: text('ref').notNull(),
    tag: boolean('tag').notNull().default(false),
    sha: text('sha').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The job that deploys (null when the job is gone). */
    deployableId: integer('deployable_id').references(() => ciBuilds.id, { onDelete: 'set null' }),
    status: text('status').$type<'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped'>().notNull().default('created'),
    /** The name of the job that stops the environment (`environment:on_stop`). */
    onStop: text('on_stop'),
    finishedAt: time('finished_at'),
    ...timestamps,
  },
  (t) => [
    unique('deployments_project_id_iid_key').on(t.projectId, t.iid),
    index('deployments_environment_id_id_idx').on(t.environmentId, t.id),
    index('deployments_deployable_id_idx').on(t.deployableId),
    check('deployments_status', sql`${t.status} IN ('created', 'running', 'success', 'failed', 'canceled', 'skipped')`),
  ],
);

/** Metrics::Dashboard::Annotation: a note on a dashboard's time range, for an environment (clusters are not modelled). */
export const metricsDashboardAnnotations = pgTable(
  'metrics_dashboard_annotations',
  {
    id: serial('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    dashboardPath: text('dashboard_path').notNull(),
    panelXid: text('panel_xid'),
    description: text('description').notNull(),
    startingAt: time('starting_at').notNull(),
    endingAt: time('ending_at'),
    ...timestamps,
  },
  (t) => [
    index('metrics_dashboard_annotations_environment_id_path_idx').on(t.environmentId, t.dashboardPath, t.startingAt),
    check('metrics_dashboard_annotations_description_length', sql`char_length(${t.description}) <= 255`),
    check('metrics_dashboard_annotations_path_length', sql`char_length(${t.dashboardPath}) <= 255`),
    check('metrics_dashboard_annotations_ending_after_starting', sql`${t.endingAt} IS NULL OR ${t.endingAt} >= ${t.startingAt}`),
  ],
);

export type EnvironmentRow = typeof environments.$inferSelect;
export type DeploymentRow = typeof deployments.$inferSelect;
export type AnnotationRow = typeof metricsDashboardAnnotations.$inferSelect;
