// THE error module. Services throw a DomainError: a code (`not_found`, `forbidden`, `invalid`, `conflict`, ...) and
// the GitLab wording it carries as data (the resource name, the reason, field -> messages, Grape's parameter
// messages, the label GitLab puts before a model's inspected errors). Each transport maps it once and never reads
// another's bodies: REST to GitLab's status, body and headers (functions/rest-errors.ts, from app.ts's onError),
// GraphQL to its resource error or a payload's `errors` (graphql/errors.ts), the OAuth endpoints to RFC 6749
// (oauth/errors.ts). The constructors below keep GitLab's names (`notFound('Issue')`, `forbidden()`, ...).

import { NO_STORE } from './no-store.ts';

/** ActiveModel's `errors.messages`: attribute -> messages (`{ title: ["can't be blank"] }`; `base` for the record). */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** ActiveModel's full messages: `{ title: ["can't be blank"] }` -> `Title can't be blank`; `base` messages stand alone. */
export const fullMessages = (fields: FieldErrors) =>
  Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((m) => (field === 'base' ? m : `${field[0]!.toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${m}`)),
  );

/** Refused input. `kind` says which GitLab construct refused it, so REST can word it as GitLab does. */
type Invalid = { code: 'invalid' } &
  /** Model validation (`render_validation_error!`). */
  (
    | { kind: 'model'; fields: FieldErrors }
    /** Model errors inspected into a message: `bad_request!("Note #{errors.messages}")` or `render_api_error!(...)`. */
    | { kind: 'record'; label: string; fields: FieldErrors; via: 'bad_request' | 'render_api_error' }
    /** Grape's parameter errors, in order. */
    | { kind: 'params'; params: readonly string[] }
    /** `bad_request!(reason)`; a bare `bad_request!` has no reason. */
    | { kind: 'bad_request'; reason?: string }
    /**
     * A message of the service's own (`render_api_error!(message, 400)`); `details` are the other keys of a hash
     * GitLab renders beside it (`{ message:, error_code:, dry_run: }` from a failed cherry-pick).
     */
    | { kind: 'message'; message: string; details?: Readonly<Record<string, string>> }
    /** A service response's full messages, one by one (the Snippets services). */
    | { kind: 'service'; messages: readonly string[] }
    /** Parameters Rack cannot read (a name both a value and a Hash, nested too deep): refused before the API sees them. */
    | { kind: 'malformed' }
  );

/** Every failure a service reports, as data. */
export type Problem =
  /** `token`: the description for a token that is expired or revoked (RFC 6750's invalid_token). */
  | { code: 'unauthorized'; token?: string }
  /** `scopes`: a token without the scope for the request, and the scopes that would have been enough. */
  | { code: 'forbidden'; reason?: string; scopes?: readonly string[]; message?: string }
  /** `record`: ActiveRecord::RecordNotFound (a `find_by!` missed), which GitLab words apart. */
  | { code: 'not_found'; resource?: string; record?: true; /** `render_api_error!(message, 404)`: the message as is. */ message?: string }
  | Invalid
  /** GitLab's `conflict!(message)`, the message a sentence or model errors. */
  | { code: 'conflict'; message: string | readonly string[] | FieldErrors }
  /** The few records GitLab refuses with 422, their full messages (`list`: the array itself, not one sentence). */
  | { code: 'unprocessable'; messages: readonly string[]; list?: true }
  /** GitLab's `not_allowed!` (an action the resource's state refuses, e.g. merging a closed merge request). */
  | { code: 'method_not_allowed' }
  /** `render_api_error!(message, 406)` (a merge that cannot be done). */
  | { code: 'not_acceptable'; message: string }
  /** The resource changed after the caller's If-Unmodified-Since. */
  | { code: 'precondition_failed' }
  /** The request changed nothing (star an already starred project, ...). */
  | { code: 'not_modified' }
  /** Too many attempts; `retryAfter` in seconds. */
  | { code: 'rate_limited'; retryAfter: number; message?: string | Record<string, string> | undefined }
  /** The instance is not configured for this (`reason` names the missing setting, never its value). */
  | { code: 'unavailable'; reason: string }
  /** A request this API does not serve in this form. */
  | { code: 'unsupported'; message: string }
  /** An upload over its limit (`render_api_error!(message, 413)`). */
  | { code: 'too_large'; message: string };

export type ErrorCode = Problem['code'];

export class DomainError<P extends Problem = Problem> extends Error {
  constructor(readonly problem: P) {
    super(problem.code);
  }
}

/** REST: 413 `{"message": message}` (an artifact over max_artifacts_size). */
export const tooLarge = (message: string) => fail({ code: 'too_large', message });

/** Whether `e` is a DomainError with this code (its problem narrowed to the code's data). */
export const isDomainError = <C extends ErrorCode>(e: unknown, code: C): e is DomainError<Extract<Problem, { code: C }>> =>
  e instanceof DomainError && e.problem.code === code;

const fail = <P extends Problem>(problem: P) => new DomainError(problem);

/** REST: 401 `{"message":"401 Unauthorized"}` */
export const unauthorized = () => fail({ code: 'unauthorized' });

/** An expired or revoked token (REST: 401 invalid_token, as GitLab's APIGuard answers). */
export const invalidToken = (description: string) => fail({ code: 'unauthorized', token: description });

/** A token without a scope good for the request, naming the scopes that would have been enough. */
export const insufficientScope = (scopes: readonly string[]) => fail({ code: 'forbidden', scopes });

/** REST: 403 `{"message":"403 Forbidden"}` or `403 Forbidden - <reason>` */
export const forbidden = (reason?: string) => fail({ code: 'forbidden', reason });

/** `error!(message, 403)`: the message as is. */
export const forbiddenMessage = (message: string) => fail({ code: 'forbidden', message });

/** REST: 404 `{"message":"404 <Resource> Not Found"}`; with no resource `404 Not Found`. */
export const notFound = (resource?: string) => fail({ code: 'not_found', resource });

/** REST: 404 `{"message":"404 Not found"}`: GitLab's answer when a `find_by!` misses (ActiveRecord::RecordNotFound). */
export const recordNotFound = () => fail({ code: 'not_found', record: true });

/** `render_api_error!(message, 404)`: a service's own not-found sentence. */
export const notFoundMessage = (message: string) => fail({ code: 'not_found', message });

/** REST: 400 `{"message":"400 Bad request - <reason>"}` (`400 Bad request` without one). */
export const badRequest = (reason?: string) => fail({ code: 'invalid', kind: 'bad_request', reason });

/** REST: 400 `Bad Request` as text/plain, GitLab's answer (Gitlab::Middleware::HandleMalformedStrings) to a request Rack cannot read. */
export const malformedRequest = () => fail({ code: 'invalid', kind: 'malformed' });

/** REST: 400 model validation `{"message":{"path":["has already been taken"]}}` (GitLab uses 400, never 422). */
export const validationFailed = (fields: FieldErrors) => fail({ code: 'invalid', kind: 'model', fields });

/**
 * Model errors GitLab interpolates into a message after `label`. REST: 400, via `bad_request`
 * `{"message":"400 Bad request - Note {:note=>[\"can't be blank\"]}"}`, via `render_api_error`
 * `{"message":"Failed to create milestone {:title=>[...]}"}`.
 */
export const invalidRecord = (label: string, fields: FieldErrors, via: 'bad_request' | 'render_api_error') =>
  fail({ code: 'invalid', kind: 'record', label, fields, via });

/** Grape parameter errors. REST: 400, joined with ", ": `{"error":"name is missing, path is invalid"}`. */
export const paramErrors = (params: readonly string[]) => fail({ code: 'invalid', kind: 'params', params });

/** REST: 400 `{"message":"<message>"}` */
export const invalidMessage = (message: string, details?: Readonly<Record<string, string>>) =>
  fail({ code: 'invalid', kind: 'message', message, ...(details ? { details } : {}) });

/** A service's failure as full messages. REST: 400 `{"message":{"error":"<the messages as a sentence>"}}`. */
export const serviceFailed = (messages: readonly string[]) => fail({ code: 'invalid', kind: 'service', messages });

/** REST: 409 with the message (GitLab's `conflict!`). */
export const conflict = (message: string | readonly string[] | FieldErrors) => fail({ code: 'conflict', message });

/** REST: 422 `{"message":"<the messages as a sentence>"}`; `'list'`: `{"message":[...]}` (render_api_error!(full_messages, 422)). */
export const unprocessable = (messages: readonly string[], as?: 'list') =>
  fail(as === 'list' ? { code: 'unprocessable', messages, list: true } : { code: 'unprocessable', messages });

/** REST: 405 `{"message":"405 Method Not Allowed"}` */
export const methodNotAllowed = () => fail({ code: 'method_not_allowed' });

/** REST: 406 `{"message":"<message>"}` */
export const notAcceptable = (message: string) => fail({ code: 'not_acceptable', message });

export const notModified = () => fail({ code: 'not_modified' });

/** REST: 429 with Retry-After; the body `{"message":"429 Too Many Requests"}`, or `{"message":<message>}` (render_api_error!). */
export const rateLimited = (retryAfter: number, message?: string | Record<string, string>) => fail({ code: 'rate_limited', retryAfter, message });

/** REST: 503 `{"message":"503 Service Unavailable - <reason>"}` */
export const unavailable = (reason: string) => fail({ code: 'unavailable', reason });

/** REST: 405 `{"error":"<message>"}` */
export const unsupported = (message: string) => fail({ code: 'unsupported', message });

/** GitLab's destroy_conditionally!: 412 when the resource changed after the client's `If-Unmodified-Since`. */
export function assertUnmodifiedSince(header: string | undefined, updatedAt: Date) {
  const since = header ? Date.parse(header) : Number.NaN;
  if (!Number.isNaN(since) && updatedAt.getTime() > since) throw fail({ code: 'precondition_failed' });
}

/** Postgres unique violation (SQLSTATE 23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23505') return constraint ? String(e.constraint ?? e.message).includes(constraint) : true;
  }
  return false;
}

// ---- The OAuth endpoints' own errors ----
// A refusal by the token, revoke, introspect and token-info endpoints is part of the OAuth protocol, not of a
// service: it is thrown already in RFC 6749's words and only those endpoints' handler (oauth/errors.ts) renders it.
// Keeping it out of Problem keeps the protocol's vocabulary (invalid_grant, invalid_client, ...) out of the domain.

/** RFC 6749 error codes and Doorkeeper's descriptions for them. */
export const OAUTH_ERROR_DESCRIPTIONS = {
  invalid_request: 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  unauthorized_client: 'The client is not authorized to perform this request using this method.',
  invalid_grant:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
  access_denied: 'The resource owner or authorization server denied the request.',
  unsupported_response_type: 'The authorization server does not support this response type.',
  invalid_token: 'The access token is invalid',
} as const;
export type OAuthErrorCode = keyof typeof OAUTH_ERROR_DESCRIPTIONS;

export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    readonly body: { error: OAuthErrorCode; error_description: string },
    readonly headers: Record<string, string>,
  ) {
    super(body.error);
  }
}

/**
 * An OAuth endpoint error: RFC 6749 JSON body, `Cache-Control: no-store`, and for 401s a `WWW-Authenticate`
 * challenge (`Basic` when the client used HTTP Basic, else `Bearer`).
 */
export function oauthError(code: OAuthErrorCode, options: { status?: 400 | 401 | 403; description?: string; challenge?: 'Basic' | 'Bearer' } = {}) {
  const status = options.status ?? (code === 'invalid_client' || code === 'invalid_token' ? 401 : 400);
  const description = options.description ?? OAUTH_ERROR_DESCRIPTIONS[code];
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) {
    headers['WWW-Authenticate'] =
      options.challenge === 'Basic' ? 'Basic realm="OAuth"' : `Bearer realm="OAuth", error="${code}", error_description="${description}"`;
  }
  return new OAuthError(status, { error: code, error_description: description }, headers);
}
