// Alert notifications (Projects::Alerting::NotifyService): the one read that decides a notification (the project by
// path, its active integrations and the one the token opens, the alert bot, the notification counted against that
// integration's rate window and the caller's count of failures, in one statement) and the one write that records it
// (deduplicated by fingerprint, the iid and the creation's system note only for a new alert). Two or three statements
// a notification, deduplicated ones included (the instance's first alert adds the alert bot's creation).
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { ALERT_STATUS_RESOLVED } from '../../schema/alerts.ts';
import { newDiscussionId } from '../notes.ts';
import { batchRows, rows } from '../lib/raw.ts';

/** The advisory lock class of alert fingerprints (the second key is a hash of the project and the fingerprint). */
const ALERT_FINGERPRINT_LOCK = 13_607;

/** A rate counter's events in its current window and when the window ends. */
export interface WindowCount {
  count: number;
  resetAt: Date;
}

export interface NotifyTarget {
  projectId: number;
  /** How many active integrations the request may name (one for an integration's URL; all for the legacy URL). */
  activeIntegrations: number;
  /** The one of them whose token the caller presented, with this notification counted in its window; null: none. */
  integration: { id: number; name: string; counted: WindowCount } | null;
  /** GitLab's alert bot (User.alert_bot), null until the first alert anywhere creates it. */
  botId: number | null;
  /** The failures counted under `failureKey` in their current window (not counting this request); null: none. */
  failures: WindowCount | null;
}

const windowEnd = (start: string | Date, seconds: number) => new Date(new Date(start).getTime() + seconds * 1000);

/**
 * The live project at `path` (case-insensitive), its active integrations (with `endpointIdentifier`, that one only),
 * the one whose token digest is `tokenDigest` with the notification counted against its rate window (`rateKey` +
 * integration id: only an authenticated notification is counted, so strangers cannot spend an integration's limit),
 * the alert bot, and the current count under `failureKey`, in one statement. Undefined when no live project has the
 * path (nothing is counted then).
 */
export async function findNotifyTarget(
  db: Db,
  o: { path: string; endpointIdentifier: string | null; tokenDigest: string | null; rateKey: string; failureKey: string; windowSeconds: number },
): Promise<NotifyTarget | undefined> {
  const expired = sql`rate_limits.window_start <= now() - make_interval(secs => ${o.windowSeconds})`;
  const [row] = await rows<{
    project_id: number;
    active_integrations: number;
    integration_id: number | null;
    integration_name: string | null;
    count: number | null;
    window_start: string | Date | null;
    failures: number | null;
    failures_start: string | Date | null;
    bot_id: number | null;
  }>(
    db,
    sql`WITH p AS (
        SELECT pr.id FROM projects pr JOIN namespaces n ON n.id = pr.namespace_id
        WHERE lower(pr.path_with_namespace) = lower(${o.path}) AND pr.deleted_at IS NULL AND n.deleted_at IS NULL
      ), i AS (
        SELECT i.id, i.name, i.token_digest = ${o.tokenDigest}::text AS opens
        FROM alert_management_http_integrations i JOIN p ON i.project_id = p.id
        WHERE i.active AND (${o.endpointIdentifier}::text IS NULL OR i.endpoint_identifier = ${o.endpointIdentifier}::text)
      ), m AS (
        SELECT id, name FROM i WHERE opens ORDER BY id LIMIT 1
      ), counted AS (
        INSERT INTO rate_limits (key, count, window_start) SELECT ${o.rateKey} || m.id, 1, now() FROM m
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN ${expired} THEN 1 ELSE rate_limits.count + 1 END,
          window_start = CASE WHEN ${expired} THEN now() ELSE rate_limits.window_start END
        RETURNING count, window_start
      )
      SELECT p.id AS project_id, (SELECT count(*) FROM i)::int AS active_integrations, m.id AS integration_id, m.name AS integration_name,
        c.count, c.window_start, f.count AS failures, f.window_start AS failures_start,
        (SELECT u.id FROM users u WHERE u.user_type = 'alert_bot' ORDER BY u.id LIMIT 1) AS bot_id
      FROM p LEFT JOIN m ON true LEFT JOIN counted c ON true
        LEFT JOIN rate_limits f ON f.key = ${o.failureKey} AND NOT (f.window_start <= now() - make_interval(secs => ${o.windowSeconds}))`,
  );
  if (!row) return undefined;
  return {
    projectId: row.project_id,
    activeIntegrations: Number(row.active_integrations),
    integration:
      row.integration_id === null
        ? null
        : {
            id: row.integration_id,
            name: row.integration_name!,
            counted: { count: Number(row.count), resetAt: windowEnd(row.window_start!, o.windowSeconds) },
          },
    botId: row.bot_id,
    failures: row.failures === null ? null : { count: Number(row.failures), resetAt: windowEnd(row.failures_start!, o.windowSeconds) },
  };
}

/**
 * User.alert_bot, for a batch: the `alert_bot` user, created when there is none (username `alert-bot`, or
 * `alert-bot1`, ... when a person has that name or email, as GitLab's unique_internal picks it; no password: it never
 * signs in). Concurrent first alerts pick the same free name, so the unique username decides: the loser waits for the
 * winner and inserts nothing, and the batch's later statements see the winner's bot.
 */
export function alertBotStatement(db: Db, host: string) {
  const suffix = sql`CASE WHEN s = 0 THEN '' ELSE s::text END`;
  return db.execute(sql`INSERT INTO users (username, name, email, user_type, projects_limit, can_create_group, confirmed_at)
    SELECT 'alert-bot' || ${suffix}, 'GitLab Alert Bot', 'alert' || ${suffix} || '@' || lower(${host}), 'alert_bot', 0, false, now()
    FROM generate_series(0, 1000) s
    WHERE NOT EXISTS (SELECT 1 FROM users WHERE user_type = 'alert_bot')
      AND NOT EXISTS (SELECT 1 FROM users u WHERE lower(u.username) = 'alert-bot' || ${suffix} OR lower(u.email) = 'alert' || ${suffix} || '@' || lower(${host}))
    ORDER BY s LIMIT 1
    ON CONFLICT DO NOTHING`);
}

export interface NewAlert {
  projectId: number;
  title: string;
  description: string | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  severity: number;
  fingerprint: string | null;
  startedAt: Date;
  /** `end_time`: resolves the open alert with the fingerprint (a new alert is created open, without it). */
  endedAt: Date | null;
  environmentName: string | null;
  payload: unknown;
}

/** What a notification did: a new alert (its iid), one more event on an open one, or the open one resolved. */
export type RecordedAlert = { outcome: 'created' | 'event' | 'resolved'; alertId: number; iid: number };

const textArrayLiteral = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * A notification's write, as a batch (one round trip, atomic). With a fingerprint, the batch first takes a lock on
 * (project, fingerprint), so concurrent notifications are decided one after the other and each statement sees the
 * alert the previous one wrote: an open alert with the fingerprint absorbs the event (events + 1) or, with an
 * `end_time`, is resolved at it; otherwise a new alert takes the project's next iid and the bot's system note
 * "logged an alert from **<source>**" (the bot's row read by this statement: a batch that creates it comes first). The iid is allocated only on that branch, so deduplicated events spend none.
 * The one-open-alert-per-fingerprint index stays the arbiter of last resort (an alert reopened meanwhile by hand).
 * The last statement's row is the RecordedAlert (recordedAlert).
 */
export function recordAlertStatements(db: Db, a: NewAlert, note: { body: string }) {
  const open = sql`a.project_id = ${a.projectId} AND a.fingerprint = ${a.fingerprint}::text AND a.status <> ${ALERT_STATUS_RESOLVED}`;
  const ending = a.endedAt !== null;
  const write = db.execute(sql`WITH bumped AS (
      UPDATE alert_management_alerts a SET events = a.events + 1, updated_at = now()
      WHERE ${open} AND ${!ending}::boolean RETURNING a.id, a.iid
    ), resolved AS (
      UPDATE alert_management_alerts a SET status = ${ALERT_STATUS_RESOLVED}, ended_at = ${a.endedAt?.toISOString() ?? null}::timestamptz, updated_at = now()
      WHERE ${open} AND ${ending}::boolean RETURNING a.id, a.iid
    ), next_iid AS (
      INSERT INTO internal_ids (usage, project_id, last_value)
      SELECT 'alert_management_alerts', ${a.projectId}, 1 WHERE NOT EXISTS (SELECT 1 FROM bumped) AND NOT EXISTS (SELECT 1 FROM resolved)
      ON CONFLICT ON CONSTRAINT internal_ids_usage_source_key DO UPDATE SET last_value = internal_ids.last_value + 1
      RETURNING last_value
    ), created AS (
      INSERT INTO alert_management_alerts AS a (project_id, iid, title, description, service, monitoring_tool, hosts, severity, status, fingerprint, events, started_at, payload, environment_name)
      SELECT ${a.projectId}, next_iid.last_value, ${a.title}, ${a.description}, ${a.service}, ${a.monitoringTool}, ${textArrayLiteral(a.hosts)}::text[], ${a.severity},
        0, ${a.fingerprint}::text, 1, ${a.startedAt.toISOString()}::timestamptz, ${JSON.stringify(a.payload)}::jsonb, ${a.environmentName}
      FROM next_iid
      ON CONFLICT (project_id, fingerprint) WHERE status <> ${ALERT_STATUS_RESOLVED} AND fingerprint IS NOT NULL
      DO UPDATE SET events = a.events + 1, updated_at = now()
      RETURNING a.id, a.iid, (a.xmax = 0) AS inserted
    ), noted AS (
      INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, discussion_id, system, system_action)
      SELECT 'AlertManagement::Alert', c.id, ${a.projectId}, (SELECT u.id FROM users u WHERE u.user_type = 'alert_bot' ORDER BY u.id LIMIT 1), ${note.body}, ${newDiscussionId()}, true, 'new_alert_added'
      FROM created c WHERE c.inserted
    )
    SELECT 'event' AS outcome, id, iid FROM bumped
    UNION ALL SELECT 'resolved', id, iid FROM resolved
    UNION ALL SELECT CASE WHEN inserted THEN 'created' ELSE 'event' END, id, iid FROM created`);
  if (a.fingerprint === null) return [write] as const;
  return [db.execute(sql`SELECT pg_advisory_xact_lock(${ALERT_FINGERPRINT_LOCK}::int, hashtext(${`${a.projectId}:${a.fingerprint}`}))`), write] as const;
}

/** What recordAlertStatements' batch did (its last result). */
export function recordedAlert(results: readonly unknown[]): RecordedAlert {
  const [row] = batchRows<{ outcome: RecordedAlert['outcome']; id: number; iid: number }>(results[results.length - 1]);
  return { outcome: row!.outcome, alertId: Number(row!.id), iid: Number(row!.iid) };
}
