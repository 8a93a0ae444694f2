// The description of the incident createAlertIssue opens (GitLab 13.6 AlertManagement::AlertPresenter#issue_description):
// the alert's summary as a Markdown list, one "**Key:** value" item a line (lines end with two spaces: Markdown's line
// break). No metrics embed (no metrics alerts here), no alert_markdown (generic payloads have none), no issue template
// (incident management settings are not modelled).
import { ALERT_SEVERITIES, type AlertRow } from '../../db/schema/index.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Ruby's strftime('%d %B %Y, %-l:%M%p (%Z)') in UTC (the instance's time zone): "24 November 2026, 8:03PM (UTC)". */
export function alertStartTime(d: Date): string {
  const hour = d.getUTCHours() % 12 || 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, '0');
  return `${String(d.getUTCDate()).padStart(2, '0')} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hour}:${minutes}${d.getUTCHours() < 12 ? 'AM' : 'PM'} (UTC)`;
}

export function alertIssueDescription(alert: AlertRow, detailsUrl: string): string {
  const item = (key: string, value: string) => `**${key}:** ${value}`.trim();
  const lines = [item('Start time', alertStartTime(alert.startedAt)), item('Severity', ALERT_SEVERITIES[alert.severity] ?? 'critical')];
  if (alert.service) lines.push(item('Service', alert.service));
  if (alert.monitoringTool) lines.push(item('Monitoring tool', alert.monitoringTool));
  if (alert.hosts.length) lines.push(item('Hosts', alert.hosts.join(' ')));
  if (alert.description?.trim()) lines.push(item('Description', alert.description));
  lines.push(item('GitLab alert', detailsUrl));
  return lines.join('  \n');
}
