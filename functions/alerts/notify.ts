// Alert notifications (GitLab 13.6 Projects::Alerting::NotificationsController and NotifyService): a monitoring
// tool POSTs JSON with an integration's token as a bearer token; the notification opens an alert, adds an event to
// the open alert with its fingerprint, or (with `end_time`) resolves that alert. The order of answers: the project
// (404), the payload (400: over 1 MB or 100 levels deep, or not a JSON object), an active integration (403), the
// token (401), the rate limit (429; Rack::Attack's throttle, which GitLab has off by default; on here).
// The limit is counted per integration, and only once its token has opened it: a stranger's requests never spend
// it, so they cannot silence a project's real alerts (issue 28). A request whose token opens nothing is counted as a
// failure of the caller's IP instead; past the limit such requests get 429 without being counted (a flood costs a
// read each), but a right token is never refused for its address's failures: every caller shares one address where
// none is reported (`npm start`), and a 128-bit token is not guessed at any rate.
// Two round trips: two statements a notification without a fingerprint, three with one (deduplicated ones
// included); the instance's first alert also creates the alert bot, one statement more in the same batch.
import {
  alertBotStatement,
  findNotifyTarget,
  recordAlertStatements,
  recordedAlert,
  type RecordedAlert,
  type WindowCount,
} from '../../db/queries/alerts/notify.ts';
import { countEvent } from '../../db/queries/lib/rate-limits.ts';
import type { RequestContext } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { badRequest, forbidden, malformedRequest, notFound, rateLimited, unauthorized } from '../lib/errors.ts';
import { nulPaths } from '../lib/validate.ts';
import { genericAlertFingerprintingAvailable } from '../lib/policy.ts';
import { alertFieldsOf, jsonDepth, PAYLOAD_MAX_BYTES, PAYLOAD_MAX_DEPTH, type JsonObject } from './payload.ts';

/**
 * GitLab's throttle_incident_management_notification defaults: 3600 notifications an hour, per integration here;
 * the same number of failed ones per client IP.
 */
export const NOTIFY_LIMIT = 3600;
export const NOTIFY_WINDOW_SECONDS = 3600;
export const NOTIFY_RATE_KEY = 'alerts:notify:integration:';
export const NOTIFY_FAILURE_KEY = 'alerts:notify:failed:ip:';

/** NotifyService#notification_source when neither the payload nor the integration names a tool. */
const DEFAULT_SOURCE = 'Generic Alert Endpoint';

const retryAfter = (w: WindowCount) => Math.max(1, Math.ceil((w.resetAt.getTime() - Date.now()) / 1000));

export interface NotifyInput {
  projectPath: string;
  /** The integration's URL names it; null for the project's legacy URL (`/alerts/notify.json`), which any active integration's token opens. */
  endpointIdentifier: string | null;
  /** The bearer token, null when the request has none. */
  token: string | null;
  /** The caller's IP (lib/rate-limit.ts clientIp): the bucket of its failed notifications. */
  ip: string;
  /** The request body as text; null when it exceeded PAYLOAD_MAX_BYTES. */
  body: string | null;
}

/** The notification's JSON object (an empty body is `{}`, as GitLab reads a missing one); anything else is a 400. */
function parsePayload(body: string | null): JsonObject {
  if (body === null) throw badRequest();
  if (!body.trim()) return {};
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    throw badRequest();
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || jsonDepth(payload) > PAYLOAD_MAX_DEPTH) throw badRequest();
  // A NUL byte no jsonb or text column stores: GitLab's HandleMalformedStrings answers before the controller runs.
  if (nulPaths(payload).length) throw malformedRequest();
  return payload as JsonObject;
}

export async function notifyAlert({ ctx, input }: { ctx: RequestContext; input: NotifyInput }): Promise<RecordedAlert> {
  // HandleMalformedStrings answers a NUL byte in the path before any route runs (no project path can hold one).
  if (nulPaths([input.projectPath, input.endpointIdentifier]).length) throw malformedRequest();
  const failureKey = `${NOTIFY_FAILURE_KEY}${input.ip}`;
  const target = await findNotifyTarget(ctx.db, {
    path: input.projectPath,
    endpointIdentifier: input.endpointIdentifier,
    tokenDigest: input.token === null ? null : await sha256Hex(input.token),
    rateKey: NOTIFY_RATE_KEY,
    failureKey,
    windowSeconds: NOTIFY_WINDOW_SECONDS,
  });
  if (!target) throw notFound('Project');
  const payload = parsePayload(input.body);
  if (!target.activeIntegrations) throw forbidden();
  const integration = target.integration;
  if (!integration) {
    if (target.failures && target.failures.count >= NOTIFY_LIMIT) throw rateLimited(retryAfter(target.failures));
    await countEvent(ctx.db, failureKey, NOTIFY_WINDOW_SECONDS);
    throw unauthorized();
  }
  if (integration.counted.count > NOTIFY_LIMIT) throw rateLimited(retryAfter(integration.counted));

  const fields = await alertFieldsOf(payload, { now: new Date(), fingerprintPayload: genericAlertFingerprintingAvailable(ctx.config.instanceTier) });
  const source = fields.monitoringTool ?? (input.endpointIdentifier === null ? DEFAULT_SOURCE : integration.name);
  const host = new URL(ctx.config.publicUrl).hostname;
  const results = await ctx.batch((db) => [
    ...(target.botId === null ? [alertBotStatement(db, host)] : []),
    ...recordAlertStatements(db, { projectId: target.projectId, ...fields, payload }, { body: `logged an alert from **${source}**` }),
  ]);
  return recordedAlert(results);
}
