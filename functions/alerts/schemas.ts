// Alert values between storage and the GraphQL enums: GitLab's integer severity and status (db/schema/alerts.ts) as
// AlertManagementSeverity / AlertManagementStatus names.
import { ALERT_SEVERITIES, ALERT_STATUSES, type AlertStatus } from '../../db/schema/index.ts';

export type AlertStatusName = Uppercase<AlertStatus>;

export const severityName = (severity: number) => (ALERT_SEVERITIES[severity] ?? 'critical').toUpperCase() as Uppercase<(typeof ALERT_SEVERITIES)[number]>;
export const statusName = (status: number) => (ALERT_STATUSES[status] ?? 'triggered').toUpperCase() as AlertStatusName;
/** The stored status of an AlertManagementStatus value. */
export const statusOf = (name: AlertStatusName) => name.toLowerCase() as AlertStatus;
export const statusNumber = (name: AlertStatusName) => ALERT_STATUSES.indexOf(statusOf(name));
