// GitLab's alert management (Core in 13.6): alerts a project receives through its HTTP integrations
// (alert_management_http_integrations), each with a per-project iid, GitLab's integer severity and status, and the
// payload it came with. Deduplication is the database's: at most one unresolved alert per (project, fingerprint), so
// concurrent notifications with one fingerprint meet at one row (an upsert increments `events`).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { issues } from './issues.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** AlertManagement::Alert's severity enum, as stored. */
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
/** AlertManagement::Alert's status enum, as stored: triggered 0, acknowledged 1, resolved 2, ignored 3. */
export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
export const ALERT_STATUS_RESOLVED = 2;

export const alertIntegrations = pgTable(
  'alert_management_http_integrations',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(false),
    /** SHA-256 of the bearer token (32 hex characters, shown at creation and reset only). */
    tokenDigest: text('token_digest').notNull(),
    /** 16 hex characters, part of the integration's URL; never changes. */
    endpointIdentifier: text('endpoint_identifier').notNull(),
    ...timestamps,
  },
  (t) => [
    unique('alert_management_http_integrations_project_endpoint_key').on(t.projectId, t.endpointIdentifier),
    check('alert_management_http_integrations_name_length', sql`char_length(${t.name}) <= 255`),
  ],
);

export const alerts = pgTable(
  'alert_management_alerts',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    service: text('service'),
    monitoringTool: text('monitoring_tool'),
    hosts: text('hosts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Index into ALERT_SEVERITIES. */
    severity: smallint('severity').notNull().default(0),
    /** Index into ALERT_STATUSES. */
    status: smallint('status').notNull().default(0),
    /** SHA-1 (hex) of the payload's fingerprint, or of the payload (Premium) when it names none. */
    fingerprint: text('fingerprint'),
    /** How many notifications this alert has absorbed (GraphQL `eventCount`). */
    events: integer('events').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    /** The notification's JSON as received (`details` is derived from it). */
    payload: jsonb('payload').notNull().default({}),
    /** `gitlab_environment_name` of the payload (environments are not modelled yet). */
    environmentName: text('environment_name'),
    /** The issue createAlertIssue opened for it. */
    issueId: integer('issue_id').references(() => issues.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    unique('alert_management_alerts_project_id_iid_key').on(t.projectId, t.iid),
    uniqueIndex('alert_management_alerts_open_fingerprint_idx')
      .on(t.projectId, t.fingerprint)
      .where(sql`${t.status} <> 2 AND ${t.fingerprint} IS NOT NULL`),
    index('alert_management_alerts_project_id_status_idx').on(t.projectId, t.status),
    check('alert_management_alerts_title_length', sql`char_length(${t.title}) <= 200`),
    check('alert_management_alerts_description_length', sql`char_length(${t.description}) <= 1000`),
    check('alert_management_alerts_service_length', sql`char_length(${t.service}) <= 100`),
    check('alert_management_alerts_monitoring_tool_length', sql`char_length(${t.monitoringTool}) <= 100`),
  ],
);

export const alertAssignees = pgTable(
  'alert_management_alert_assignees',
  {
    id: serial('id').primaryKey(),
    alertId: integer('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    unique('alert_management_alert_assignees_alert_id_user_id_key').on(t.alertId, t.userId),
    index('alert_management_alert_assignees_user_id_idx').on(t.userId),
  ],
);

export type AlertIntegrationRow = typeof alertIntegrations.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;
