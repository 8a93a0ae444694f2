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

export const internalError = () => new ApiError(500, { message: '500 Internal Server Error' });

/** Postgres unique violation (SQLSTATE 23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23505') return constraint ? String(e.constraint ?? e.message).includes(constraint) : true;
  }
  return false;
}
