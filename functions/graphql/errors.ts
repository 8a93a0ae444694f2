// GitLab's GraphQL error model: a resource that is missing and one that is forbidden give the same top-level error;
// business failures of a mutation go in its payload's `errors`; anything unexpected is masked and logged with the
// request id. Services throw the REST ApiErrors; this is the one translation.
import { GraphQLError } from 'graphql';
import { ApiError } from '../lib/errors.ts';
import { log } from '../lib/log.ts';

export const RESOURCE_ACCESS_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const resourceNotAvailable = (message = RESOURCE_ACCESS_ERROR) => new GraphQLError(message);

const hidden = (e: unknown) => e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404);

/** A query field's read: missing or not permitted is null (no error), as GitLab's authorized finders. */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (hidden(e)) return null;
    throw e;
  }
}

/** Rails-style full messages from a REST error body (`{"message":{"title":["can't be blank"]}}` -> `Title can't be blank`). */
export function errorMessages(e: ApiError): string[] {
  const body = (e.body ?? {}) as { message?: unknown; error?: unknown };
  const m = body.message ?? body.error;
  if (typeof m === 'string') return [m.replace(/^\d{3} (Bad request - )?/, '')];
  if (m && typeof m === 'object') {
    return Object.entries(m as Record<string, unknown>).flatMap(([field, msgs]) =>
      (Array.isArray(msgs) ? msgs : [msgs]).map((msg) => (field === 'error' || field === 'base' ? String(msg) : `${field[0]!.toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${String(msg)}`)),
    );
  }
  return ['Something went wrong'];
}

/**
 * A mutation's service call: not found / forbidden become the top-level resource error; other service refusals
 * (400, 409, 422) become the payload's `errors` with a null result.
 */
export async function mutation<T>(run: () => Promise<T>): Promise<{ value: T | null; errors: string[] }> {
  try {
    return { value: await run(), errors: [] };
  } catch (e) {
    if (hidden(e)) throw resourceNotAvailable();
    if (e instanceof ApiError && e.status >= 400 && e.status < 500) return { value: null, errors: errorMessages(e) };
    throw e;
  }
}

/**
 * GraphQL errors pass, hidden resources read as the resource error, service refusals keep their message; the rest is
 * logged with the request id and masked.
 */
export function maskError(error: unknown, requestId: string | undefined): GraphQLError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (hidden(original)) return new GraphQLError(RESOURCE_ACCESS_ERROR, { path: error instanceof GraphQLError ? error.path : undefined });
  if (error instanceof GraphQLError && !(error.originalError && !(error.originalError instanceof GraphQLError))) return error;
  // A service's refusal of bad input (400, 409, ...) is the caller's to read, in GitLab's words.
  if (original instanceof ApiError && original.status >= 400 && original.status < 500) {
    return new GraphQLError(errorMessages(original).join(', '), { path: error instanceof GraphQLError ? error.path : undefined });
  }
  log('error', 'graphql resolver error', { requestId, error: original instanceof Error ? (original.stack ?? original.message) : String(original) });
  return new GraphQLError('Internal server error', { path: error instanceof GraphQLError ? error.path : undefined });
}
