// REST's one reading of the services' DomainErrors (app.ts's onError writes it): the status, body and headers GitLab's
// Grape API answers for each code, byte for byte.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DomainError, FieldErrors, Problem } from './lib/errors.ts';
import { toSentence } from './lib/format.ts';

/** `text`: a plain-text body instead of JSON (what GitLab's Rack middleware answers before the API runs). */
type RestError = { status: ContentfulStatusCode | 304; body: Record<string, unknown> | null; text?: string; headers?: Record<string, string> };

/** Rails' `errors.messages.inspect` (Ruby 2.7 Hash#inspect), as GitLab interpolates it into a message. */
function rubyInspect(fields: FieldErrors): string {
  return `{${Object.entries(fields)
    .map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ')}}`;
}

const badRequestMessage = (reason: string | undefined) => (reason === undefined ? '400 Bad request' : `400 Bad request - ${reason}`);

function invalidBody(p: Exclude<Extract<Problem, { code: 'invalid' }>, { kind: 'malformed' }>): Record<string, unknown> {
  switch (p.kind) {
    case 'model':
      return { message: p.fields };
    case 'record': {
      const text = `${p.label} ${rubyInspect(p.fields)}`;
      return { message: p.via === 'bad_request' ? badRequestMessage(text) : text };
    }
    case 'params':
      return { error: p.params.join(', ') };
    case 'bad_request':
      return { message: badRequestMessage(p.reason) };
    case 'message':
      return { message: p.message, ...p.details };
    case 'service':
      return { message: { error: toSentence(p.messages) } };
  }
}

/** The bearer challenges of RFC 6750, as GitLab's APIGuard words them. */
const challenge = (error: string, description: string, scope?: string) =>
  `Bearer realm="The API", error="${error}", error_description="${description}"${scope === undefined ? '' : `, scope="${scope}"`}`;
const INSUFFICIENT_SCOPE = 'The request requires higher privileges than provided by the access token.';

export function restError({ problem: p }: DomainError): RestError {
  switch (p.code) {
    case 'unauthorized':
      if (p.token === undefined) return { status: 401, body: { message: '401 Unauthorized' } };
      return {
        status: 401,
        body: { error: 'invalid_token', error_description: p.token },
        headers: { 'WWW-Authenticate': challenge('invalid_token', p.token) },
      };
    case 'forbidden': {
      if (p.scopes === undefined) return { status: 403, body: { message: p.message ?? (p.reason ? `403 Forbidden - ${p.reason}` : '403 Forbidden') } };
      const scope = p.scopes.join(' ');
      return {
        status: 403,
        body: { error: 'insufficient_scope', error_description: INSUFFICIENT_SCOPE, scope },
        headers: { 'WWW-Authenticate': challenge('insufficient_scope', INSUFFICIENT_SCOPE, scope) },
      };
    }
    case 'not_found':
      return { status: 404, body: { message: p.message ?? (p.record ? '404 Not found' : p.resource ? `404 ${p.resource} Not Found` : '404 Not Found') } };
    case 'invalid':
      if (p.kind === 'malformed') return { status: 400, body: null, text: 'Bad Request' };
      return { status: 400, body: invalidBody(p) };
    case 'conflict':
      return { status: 409, body: { message: p.message } };
    case 'unprocessable':
      return { status: 422, body: { message: p.list ? [...p.messages] : toSentence(p.messages) } };
    case 'method_not_allowed':
      return { status: 405, body: { message: '405 Method Not Allowed' } };
    case 'not_acceptable':
      return { status: 406, body: { message: p.message } };
    case 'precondition_failed':
      return { status: 412, body: { message: '412 Precondition Failed' } };
    case 'not_modified':
      return { status: 304, body: null };
    case 'rate_limited':
      return { status: 429, body: { message: p.message ?? '429 Too Many Requests' }, headers: { 'Retry-After': String(p.retryAfter) } };
    case 'unavailable':
      return { status: 503, body: { message: `503 Service Unavailable - ${p.reason}` } };
    case 'unsupported':
      return { status: 405, body: { error: p.message } };
    case 'too_large':
      return { status: 413, body: { message: p.message } };
  }
}
