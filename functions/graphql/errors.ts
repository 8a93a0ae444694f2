// GraphQL's one reading of the services' DomainErrors, GitLab's error model: not_found, forbidden and unauthorized
// give the same top-level resource error (a missing resource and a forbidden one look alike); refusals (invalid,
// conflict, ...) go in a mutation payload's `errors` as Rails-style full messages built from the error's data;
// anything unexpected is masked and logged with the request id.
import { GraphQLError } from 'graphql';
import { DomainError, fullMessages, type FieldErrors, type Problem } from '../lib/errors.ts';
import { log } from '../lib/log.ts';

export const RESOURCE_ACCESS_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const resourceNotAvailable = (message = RESOURCE_ACCESS_ERROR) => new GraphQLError(message);

const hidden = (e: unknown) =>
  e instanceof DomainError && (e.problem.code === 'unauthorized' || e.problem.code === 'forbidden' || e.problem.code === 'not_found');

/** A query field's read: missing or not permitted is null (no error), as GitLab's authorized finders. */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (hidden(e)) return null;
    throw e;
  }
}

function invalidMessages(p: Extract<Problem, { code: 'invalid' }>): string[] {
  switch (p.kind) {
    case 'model':
    case 'record':
      return fullMessages(p.fields);
    case 'params':
      return [...p.params];
    case 'bad_request':
      return [p.reason ?? 'Bad request'];
    case 'message':
      return [p.message];
    case 'service':
      return [...p.messages];
    case 'malformed':
      return ['Bad Request'];
  }
}

/** What a service's refusal says to the caller; null for errors that are not the caller's to read (masked). */
function refusal(e: unknown): string[] | null {
  if (!(e instanceof DomainError)) return null;
  const p = e.problem;
  switch (p.code) {
    case 'invalid':
      return invalidMessages(p);
    case 'conflict':
      return typeof p.message === 'string'
        ? [p.message]
        : Array.isArray(p.message)
          ? [...(p.message as readonly string[])]
          : fullMessages(p.message as FieldErrors);
    case 'unprocessable':
      return [...p.messages];
    case 'unsupported':
      return [p.message];
    case 'precondition_failed':
      return ['Precondition Failed'];
    case 'rate_limited':
      return ['Too Many Requests'];
    default:
      return null;
  }
}

/**
 * A mutation's service call: not found / forbidden become the top-level resource error; the service's refusals
 * become the payload's `errors` with a null result.
 */
export async function mutation<T>(run: () => Promise<T>): Promise<{ value: T | null; errors: string[] }> {
  try {
    return { value: await run(), errors: [] };
  } catch (e) {
    if (hidden(e)) throw resourceNotAvailable();
    const errors = refusal(e);
    if (errors) return { value: null, errors };
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
  // A service's refusal of bad input is the caller's to read, in GitLab's words.
  const messages = refusal(original);
  if (messages) return new GraphQLError(messages.join(', '), { path: error instanceof GraphQLError ? error.path : undefined });
  log('error', 'graphql resolver error', { requestId, error: original instanceof Error ? (original.stack ?? original.message) : String(original) });
  return new GraphQLError('Internal server error', { path: error instanceof GraphQLError ? error.path : undefined });
}
