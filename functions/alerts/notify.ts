// Alert notifications (GitLab 13.6 Projects::Alerting::NotificationsController and NotifyService): a monitoring
// tool POSTs JSON with an integration's token as a bearer token; the notification opens an alert, adds an event to
// the open alert with its fingerprint, or (with `end_time`) resolves that alert. GitLab's order of answers: the
// project (404), the rate limit (429, Rack::Attack's throttle, which GitLab has off by default; on here), the payload
// (400: over 1 MB or 100 levels deep, or not a JSON object), an active integration (403), the token (401).
// Two round trips: two statements a notification without a fingerprint, three with one (deduplicated ones
// included); the instance's first alert also creates the alert bot, one statement more in the same batch.
import { alertBotStatement, findNotifyTarget, recordAlertStatements, recordedAlert, type RecordedAlert } from '../../db/queries/alert-notify.ts';
import type { RequestContext } from '../lib/context.ts';
import { constantTimeEqual, sha256Hex } from '../lib/crypto.ts';
import { badRequest, forbidden, malformedRequest, notFound, rateLimited, unauthorized } from '../lib/errors.ts';
import { nulPaths } from '../lib/validate.ts';
import { genericAlertFingerprintingAvailable } from '../lib/policy.ts';
import { alertFieldsOf, jsonDepth, PAYLOAD_MAX_BYTES, PAYLOAD_MAX_DEPTH, type JsonObject } from './payload.ts';

/** GitLab's throttle_incident_management_notification defaults: 3600 notifications an hour, per project here. */
export const NOTIFY_LIMIT = 3600;
export const NOTIFY_WINDOW_SECONDS = 3600;

/** NotifyService#notification_source when neither the payload nor the integration names a tool. */
const DEFAULT_SOURCE = 'Generic Alert Endpoint';

export interface NotifyInput {
  projectPath: string;
  /** The integration's URL names it; null for the project's legacy URL (`/alerts/notify.json`), which any active integration's token opens. */
  endpointIdentifier: string | null;
  /** The bearer token, null when the request has none. */
  token: string | null;
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

/** The integration whose token the caller holds (each digest compared in constant time), or undefined. */
async function integrationFor<I extends { tokenDigest: string }>(integrations: readonly I[], digest: string | null): Promise<I | undefined> {
  if (digest === null) return undefined;
  const matches = await Promise.all(integrations.map((i) => constantTimeEqual(i.tokenDigest, digest)));
  return integrations[matches.indexOf(true)];
}

export async function notifyAlert({ ctx, input }: { ctx: RequestContext; input: NotifyInput }): Promise<RecordedAlert> {
  const target = await findNotifyTarget(ctx.db, {
    path: input.projectPath,
    endpointIdentifier: input.endpointIdentifier,
    rateKey: 'alerts:notify:project:',
    windowSeconds: NOTIFY_WINDOW_SECONDS,
  });
  if (!target) throw notFound('Project');
  if (target.count > NOTIFY_LIMIT) throw rateLimited(Math.max(1, Math.ceil((target.resetAt.getTime() - Date.now()) / 1000)));
  const payload = parsePayload(input.body);
  if (!target.integrations.length) throw forbidden();
  const integration = await integrationFor(target.integrations, input.token === null ? null : await sha256Hex(input.token));
  if (!integration) throw unauthorized();

  const fields = await alertFieldsOf(payload, { now: new Date(), fingerprintPayload: genericAlertFingerprintingAvailable(ctx.config.instanceTier) });
  const source = fields.monitoringTool ?? (input.endpointIdentifier === null ? DEFAULT_SOURCE : integration.name);
  const host = new URL(ctx.config.publicUrl).hostname;
  const results = await ctx.batch((db) => [
    ...(target.botId === null ? [alertBotStatement(db, host)] : []),
    ...recordAlertStatements(db, { projectId: target.projectId, ...fields, payload }, { body: `logged an alert from **${source}**` }),
  ]);
  return recordedAlert(results);
}
