// A generic alert notification's JSON read as GitLab 13.6 reads it (Gitlab::AlertManagement::Payload::Generic over
// Payload::Base#alert_params, the EE payload fingerprint, AlertManagement::Alert#details): pure functions, shared by
// the notify service (functions/alerts/notify.ts) and the alert reads (`details`). Where GitLab answers a value of an
// unexpected JSON type with a 500 (a number as title, an unknown severity, a number as start_time), the value is
// read leniently instead (documented at each place), so a notification is never an error for its contents.
import { ALERT_SEVERITIES } from '../../db/schema/alerts.ts';
import type { NewAlert } from '../../db/queries/alerts/notify.ts';

/** Gitlab::Utils::DeepSize's defaults, which NotifyService#valid_payload_size? checks first (400 past either). */
export const PAYLOAD_MAX_BYTES = 1024 * 1024;
export const PAYLOAD_MAX_DEPTH = 100;

/** AlertManagement::Alert's limits (the payload's values are truncated to them, never refused). */
const TITLE_MAX = 200;
const DESCRIPTION_MAX = 1000;
const SERVICE_MAX = 100;
const TOOL_MAX = 100;
const HOSTS_MAX = 255;

export const DEFAULT_TITLE = 'New: Incident';
const DEFAULT_SEVERITY = 0; // critical

/** The alert columns a payload's fields fill (the notification's write takes them with the project and payload). */
export type AlertFields = Omit<NewAlert, 'projectId' | 'payload'>;

export type JsonObject = Record<string, unknown>;

/** Nesting depth of a parsed JSON value (a scalar is 0), without recursion: a deep payload cannot overflow the stack. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) max = depth + 1;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return max;
}

/** ActiveSupport's `blank?` over JSON values: null, false, whitespace-only strings, empty arrays and objects. */
const blank = (v: unknown) =>
  v === null ||
  v === undefined ||
  v === false ||
  (typeof v === 'string' && !/\S/.test(v)) ||
  (Array.isArray(v) && !v.length) ||
  (typeof v === 'object' && v !== null && !Object.keys(v).length);

/** Codepoints, as Ruby counts a string's length (and PostgreSQL's char_length). */
const chars = (s: string) => Array.from(s);

/** Rails' String#truncate(max): past `max` characters, the first max-3 and "...". */
function truncate(s: string, max: number): string {
  const c = chars(s);
  return c.length > max ? `${c.slice(0, max - 3).join('')}...` : s;
}

/**
 * Ruby's `inspect` of a parsed JSON value (Hash#to_s is its inspect): what GitLab's fingerprint hashes for a payload
 * or a fingerprint that is an object. JSON numbers lose Ruby's Integer/Float distinction (1.0 reads as 1 here).
 */
function rubyInspect(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return JSON.stringify(v).replace(/#(?=[{$@])/g, '\\#');
  if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** Ruby's `to_s` of a parsed JSON value (nil is "", a hash or array its inspect). */
const rubyToS = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? rubyInspect(v) : String(v));

/** A text field's value: present strings as sent; numbers and booleans as text (GitLab: a 500); blank is absent. */
function text(v: unknown): string | null {
  if (blank(v)) return null;
  return typeof v === 'object' ? rubyInspect(v) : String(v);
}

async function sha1Hex(s: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(s)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Gitlab::AlertManagement::Fingerprint.generate: SHA-1 of the value's text, an array flattened and its elements'
 * texts joined; nothing for a blank value.
 */
export async function fingerprintOf(value: unknown): Promise<string | null> {
  if (blank(value)) return null;
  return sha1Hex(Array.isArray(value) ? (value.flat(Infinity) as unknown[]).map(rubyToS).join('') : rubyToS(value));
}

/** The payload keys the EE payload fingerprint leaves out (they change between notifications of one alert). */
const UNFINGERPRINTED = new Set(['start_time', 'end_time', 'hosts']);

/**
 * `Time.parse(value).utc`, absent when it does not parse. Only strings are read (GitLab raises a 500 on a number);
 * a time without a zone is UTC, the zone the service runs in.
 */
function time(v: unknown): Date | null {
  if (typeof v !== 'string' || blank(v)) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * `Array(hosts).flatten`, each host as text, then Payload::Base#truncate_hosts: while the joined hosts exceed 255
 * characters, hosts are cut (no omission mark) to what remains and the rest dropped.
 */
function hostsOf(v: unknown): string[] {
  if (blank(v)) return [];
  // Array(hash) is its [key, value] pairs.
  const list = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.entries(v) : [v];
  const hosts = (list.flat(Infinity) as unknown[]).map(rubyToS);
  if (chars(hosts.join('')).length <= HOSTS_MAX) return hosts;
  const kept: string[] = [];
  for (const host of hosts) {
    const remaining = HOSTS_MAX - chars(kept.join('')).length;
    if (remaining <= 0) break;
    kept.push(chars(host).slice(0, remaining).join(''));
  }
  return kept;
}

/**
 * The severity named (case-insensitively) or critical: GitLab 13.6 defaults a missing severity to critical and fails
 * with a 500 on one it does not know; an unknown one is critical here too (what GitLab later settled on).
 */
function severityOf(v: unknown): number {
  const index = typeof v === 'string' ? (ALERT_SEVERITIES as readonly string[]).indexOf(v.trim().toLowerCase()) : -1;
  return index === -1 ? DEFAULT_SEVERITY : index;
}

/**
 * The alert a notification describes. `fingerprintPayload` is the license's generic_alert_fingerprinting
 * (Premium): without a `fingerprint`, the payload itself (less start_time, end_time and hosts) is the fingerprint,
 * so identical notifications land on one alert.
 */
export async function alertFieldsOf(payload: JsonObject, o: { now: Date; fingerprintPayload: boolean }): Promise<AlertFields> {
  const field = (key: string) => (payload[key] === false ? undefined : payload[key]);
  let fingerprintSource = blank(field('fingerprint')) ? undefined : field('fingerprint');
  if (fingerprintSource === undefined && o.fingerprintPayload) {
    const rest = Object.fromEntries(Object.entries(payload).filter(([k]) => !UNFINGERPRINTED.has(k)));
    if (Object.values(rest).some((v) => !blank(v))) fingerprintSource = rest;
  }
  const title = text(field('title'));
  const description = text(field('description'));
  const service = text(field('service'));
  const monitoringTool = text(field('monitoring_tool'));
  return {
    title: truncate(title ?? DEFAULT_TITLE, TITLE_MAX),
    description: description && truncate(description, DESCRIPTION_MAX),
    service: service && truncate(service, SERVICE_MAX),
    monitoringTool: monitoringTool && truncate(monitoringTool, TOOL_MAX),
    hosts: hostsOf(field('hosts')),
    severity: severityOf(field('severity')),
    fingerprint: await fingerprintOf(fingerprintSource),
    startedAt: time(field('start_time')) ?? o.now,
    endedAt: time(field('end_time')),
    environmentName: text(field('gitlab_environment_name')),
  };
}

/**
 * AlertManagement::Alert's columns: the payload keys `details` leaves out (Alert#details is the payload less the
 * alert's attribute names, so `start_time`, `end_time` and `gitlab_environment_name` stay in it, as in GitLab).
 */
const ALERT_ATTRIBUTES = new Set([
  'id',
  'created_at',
  'updated_at',
  'started_at',
  'ended_at',
  'events',
  'iid',
  'severity',
  'status',
  'fingerprint',
  'issue_id',
  'project_id',
  'title',
  'description',
  'service',
  'monitoring_tool',
  'hosts',
  'payload',
  'prometheus_alert_id',
  'environment_id',
]);

/**
 * GraphQL's AlertManagementAlert.details: the payload less the alert's own attributes, nested objects flattened into
 * "parent.child" keys (Gitlab::Utils::InlineHash.merge_keys; arrays stay values, an empty object disappears).
 */
export function detailsOf(payload: unknown): JsonObject {
  const out: JsonObject = {};
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return out;
  // merge_keys works a queue from the front and puts a hash's children back at the front, in reverse.
  const queue: Array<[string, unknown]> = Object.entries(payload).filter(([k]) => !ALERT_ATTRIBUTES.has(k));
  while (queue.length) {
    const [key, value] = queue.shift()!;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) queue.unshift([`${key}.${k}`, v]);
    } else {
      out[key] = value;
    }
  }
  return out;
}
