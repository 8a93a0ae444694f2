// THE error module. Every failure a route can produce is an ApiError carrying its status and GitLab's exact body;
// app.ts turns them into responses (REST) and the GraphQL layer maps them to its error model.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type ErrorBody = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode | 304,
    readonly body: ErrorBody | null,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

/** 401 `{"message":"401 Unauthorized"}` */
export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });

/** 401 with an OAuth `invalid_token` body (expired or revoked tokens, as GitLab's APIGuard answers). */
export const invalidToken = (description: string) =>
  new ApiError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'WWW-Authenticate': `Bearer realm="The API", error="invalid_token", error_description="${description}"` },
  );

/** 403 insufficient_scope, naming the scopes that would have been enough. */
export const insufficientScope = (scopes: readonly string[]) => {
  const description = 'The request requires higher privileges than provided by the access token.';
  return new ApiError(
    403,
    { error: 'insufficient_scope', error_description: description, scope: scopes.join(' ') },
    { 'WWW-Authenticate': `Bearer realm="The API", error="insufficient_scope", error_description="${description}", scope="${scopes.join(' ')}"` },
  );
};

/** 403 `{"message":"403 Forbidden"}` or `403 Forbidden - <reason>` */
export const forbidden = (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });

/** 404 `{"message":"404 <Resource> Not Found"}`; with no resource `404 Not Found`. */
export const notFound = (resource?: string) => new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });

/** 404 `{"message":"404 Not found"}`: GitLab's answer when a `find_by!` misses (ActiveRecord::RecordNotFound). */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });

/** 400 `{"message":"400 Bad request - <reason>"}` */
export const badRequest = (reason: string) => new ApiError(400, { message: `400 Bad request - ${reason}` });

/** 409 with a plain message (GitLab's `conflict!`). */
export const conflict = (message: string | ErrorBody = '409 Conflict') => new ApiError(409, { message });

/** 400 model validation: `{"message":{"path":["has already been taken"]}}` (GitLab uses 400, never 422). */
export const validationFailed = (errors: Record<string, string[]>) => new ApiError(400, { message: errors });

/** 400 Grape parameter errors, joined with ", ": `{"error":"name is missing, path is invalid"}`. */
export const paramErrors = (messages: readonly string[]) => new ApiError(400, { error: messages.join(', ') });

export const accepted = () => new ApiError(202, { message: '202 Accepted' });

export const notModified = () => new ApiError(304, null);

/** GitLab's destroy_conditionally!: 412 when the resource changed after the client's `If-Unmodified-Since`. */
export function assertUnmodifiedSince(header: string | undefined, updatedAt: Date) {
  const since = header ? Date.parse(header) : Number.NaN;
  if (!Number.isNaN(since) && updatedAt.getTime() > since) throw new ApiError(412, { message: '412 Precondition Failed' });
}

export const internalError = () => new ApiError(500, { message: '500 Internal Server Error' });

/** Postgres unique violation (SQLSTATE 23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23505') return constraint ? String(e.constraint ?? e.message).includes(constraint) : true;
  }
  return false;
}

/** RFC 6749 error codes and Doorkeeper's descriptions for them. */
export const OAUTH_ERROR_DESCRIPTIONS = {
  invalid_request: 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  unauthorized_client: 'The client is not authorized to perform this request using this method.',
  invalid_grant: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
  access_denied: 'The resource owner or authorization server denied the request.',
  unsupported_response_type: 'The authorization server does not support this response type.',
  invalid_token: 'The access token is invalid',
} as const;
export type OAuthErrorCode = keyof typeof OAUTH_ERROR_DESCRIPTIONS;

/**
 * An OAuth endpoint error: RFC 6749 JSON body, `Cache-Control: no-store`, and for 401s a `WWW-Authenticate`
 * challenge (`Basic` when the client used HTTP Basic, else `Bearer`).
 */
export function oauthError(code: OAuthErrorCode, options: { status?: 400 | 401 | 403; description?: string; challenge?: 'Basic' | 'Bearer' } = {}) {
  const status = options.status ?? (code === 'invalid_client' || code === 'invalid_token' ? 401 : 400);
  const description = options.description ?? OAUTH_ERROR_DESCRIPTIONS[code];
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (status === 401) {
    headers['WWW-Authenticate'] =
      options.challenge === 'Basic' ? 'Basic realm="OAuth"' : `Bearer realm="OAuth", error="${code}", error_description="${description}"`;
  }
  return new ApiError(status, { error: code, error_description: description }, headers);
}
