// The alert notification endpoints, outside /api/v4 as GitLab 13.6 routes them (Projects::Alerting::
// NotificationsController#create): `POST /<namespace path>/<project>/alerts/notify(.json)` (the project's legacy
// URL) and `POST /<namespace path>/<project>/alerts/notify/<name>/<endpoint identifier>(.json)` (an HTTP
// integration's `url`; the name is decoration, the identifier decides). The token is the `Authorization: Bearer`
// header only (Doorkeeper's from_bearer_authorization); no session or personal token is read. Answers as the
// controller's `head`: the status with an empty body; a 404 as the app's other pages; 429 as Rack::Attack answers.
import { Hono, type Context } from 'hono';
import { notifyAlert } from '../alerts/notify.ts';
import { PAYLOAD_MAX_BYTES } from '../alerts/payload.ts';
import type { AppEnv } from '../lib/context.ts';
import { DomainError } from '../lib/errors.ts';
import { clientIp } from '../lib/rate-limit.ts';

export const alertNotifyRoutes = new Hono<AppEnv>();

/** The body as text, or null past `max` bytes (read no further than that: a huge body is never buffered). */
async function readCapped(req: Request, max: number): Promise<string | null> {
  if (Number(req.headers.get('content-length') ?? 0) > max) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const bearer = (c: Context<AppEnv>) => /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? null;

/** The controller's answers for the service's refusals (`head <status>`). */
function headFor(c: Context<AppEnv>, e: unknown): Response {
  if (!(e instanceof DomainError)) throw e;
  const p = e.problem;
  switch (p.code) {
    case 'not_found':
      return c.text('404 Not Found', 404);
    case 'rate_limited':
      c.header('Retry-After', String(p.retryAfter));
      return c.text('Retry later\n', 429);
    case 'invalid':
      return p.kind === 'malformed' ? c.text('Bad Request', 400) : c.body(null, 400);
    case 'forbidden':
      return c.body(null, 403);
    case 'unauthorized':
      return c.body(null, 401);
    default:
      throw e;
  }
}

async function notify(c: Context<AppEnv>, endpointIdentifier: string | null) {
  try {
    await notifyAlert({
      ctx: c.var.ctx,
      input: {
        projectPath: c.req.param('project')!,
        endpointIdentifier,
        token: bearer(c),
        ip: clientIp(c),
        body: await readCapped(c.req.raw, PAYLOAD_MAX_BYTES),
      },
    });
    return c.body(null, 200);
  } catch (e) {
    return headFor(c, e);
  }
}

alertNotifyRoutes.post('/:project{.+}/alerts/:notify{notify(?:\\.json)?}', (c) => notify(c, null));
alertNotifyRoutes.post('/:project{.+}/alerts/notify/:name/:endpoint{[A-Za-z0-9]+(?:\\.json)?}', (c) =>
  notify(c, c.req.param('endpoint').replace(/\.json$/, '')),
);
