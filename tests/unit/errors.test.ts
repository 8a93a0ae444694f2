// The services' DomainErrors and their one mapping per transport: REST (GitLab's exact bodies, statuses and headers),
// GraphQL (the resource error, or full messages in a payload's `errors`) and the OAuth endpoints (RFC 6749, no-store).
import { GraphQLError } from 'graphql';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { mutation, RESOURCE_ACCESS_ERROR } from '../../functions/graphql/errors.ts';
import type { AppEnv } from '../../functions/lib/context.ts';
import {
  assertUnmodifiedSince,
  badRequest,
  conflict,
  DomainError,
  forbidden,
  insufficientScope,
  invalidMessage,
  invalidRecord,
  invalidToken,
  notFound,
  notModified,
  oauthError,
  paramErrors,
  rateLimited,
  recordNotFound,
  serviceFailed,
  unauthorized,
  unavailable,
  unprocessable,
  unsupported,
  validationFailed,
} from '../../functions/lib/errors.ts';
import { oauthErrorResponse } from '../../functions/oauth/errors.ts';
import { restError } from '../../functions/rest-errors.ts';

const thrown = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('nothing thrown');
};

describe('REST: GitLab bodies', () => {
  const scopeChallenge = 'error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token."';
  it.each<[string, DomainError, unknown]>([
    ['unauthorized', unauthorized(), { status: 401, body: { message: '401 Unauthorized' } }],
    [
      'invalid token',
      invalidToken('Token is expired.'),
      {
        status: 401,
        body: { error: 'invalid_token', error_description: 'Token is expired.' },
        headers: { 'WWW-Authenticate': 'Bearer realm="The API", error="invalid_token", error_description="Token is expired."' },
      },
    ],
    [
      'insufficient scope',
      insufficientScope(['read_user', 'api']),
      {
        status: 403,
        body: {
          error: 'insufficient_scope',
          error_description: 'The request requires higher privileges than provided by the access token.',
          scope: 'read_user api',
        },
        headers: { 'WWW-Authenticate': `Bearer realm="The API", ${scopeChallenge}, scope="read_user api"` },
      },
    ],
    ['forbidden', forbidden(), { status: 403, body: { message: '403 Forbidden' } }],
    ['forbidden with a reason', forbidden('Must be admin to use sudo'), { status: 403, body: { message: '403 Forbidden - Must be admin to use sudo' } }],
    ['not found', notFound('Project'), { status: 404, body: { message: '404 Project Not Found' } }],
    ['not found, no resource', notFound(), { status: 404, body: { message: '404 Not Found' } }],
    ['record not found', recordNotFound(), { status: 404, body: { message: '404 Not found' } }],
    ['bad request', badRequest('Not a percentage'), { status: 400, body: { message: '400 Bad request - Not a percentage' } }],
    ['bare bad request', badRequest(), { status: 400, body: { message: '400 Bad request' } }],
    ['model validation', validationFailed({ path: ['has already been taken'] }), { status: 400, body: { message: { path: ['has already been taken'] } } }],
    [
      'model errors in a bad request',
      invalidRecord('Note', { note: ["can't be blank"] }, 'bad_request'),
      { status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' } },
    ],
    [
      'model errors in an API error',
      invalidRecord('Failed to create milestone', { title: ["can't be blank"], due_date: ['must be greater than start date', 'x'] }, 'render_api_error'),
      { status: 400, body: { message: 'Failed to create milestone {:title=>["can\'t be blank"], :due_date=>["must be greater than start date", "x"]}' } },
    ],
    ['Grape parameters', paramErrors(['name is missing', 'path is invalid']), { status: 400, body: { error: 'name is missing, path is invalid' } }],
    ['a message', invalidMessage("'x' is not a valid level"), { status: 400, body: { message: "'x' is not a valid level" } }],
    ['a service failure', serviceFailed(['A', 'B', 'C']), { status: 400, body: { message: { error: 'A, B, and C' } } }],
    ['conflict', conflict('Label already exists'), { status: 409, body: { message: 'Label already exists' } }],
    ['conflict with model errors', conflict({ name: ['has already been taken'] }), { status: 409, body: { message: { name: ['has already been taken'] } } }],
    [
      '422',
      unprocessable(["Name can't be blank", "Scopes can't be blank"]),
      { status: 422, body: { message: "Name can't be blank and Scopes can't be blank" } },
    ],
    [
      'precondition',
      thrown(() => assertUnmodifiedSince('Thu, 01 Jan 2015 00:00:00 GMT', new Date())),
      { status: 412, body: { message: '412 Precondition Failed' } },
    ],
    ['not modified', notModified(), { status: 304, body: null }],
    ['rate limited', rateLimited(42), { status: 429, body: { message: '429 Too Many Requests' }, headers: { 'Retry-After': '42' } }],
    [
      'unavailable',
      unavailable('ENCRYPTION_KEY is not configured'),
      { status: 503, body: { message: '503 Service Unavailable - ENCRYPTION_KEY is not configured' } },
    ],
    [
      'unsupported',
      unsupported('Keyset pagination is not yet available for this type of request'),
      { status: 405, body: { error: 'Keyset pagination is not yet available for this type of request' } },
    ],
  ])('%s', (_name, error, expected) => {
    expect(restError(error)).toEqual(expected);
  });
});

describe('GraphQL: the resource error or full messages built from the data', () => {
  const failing = (error: DomainError) => mutation(() => Promise.reject(error));

  it.each<[string, DomainError, string[]]>([
    ['model errors, humanized', validationFailed({ title: ["can't be blank"], due_date: ['is invalid'] }), ["Title can't be blank", 'Due date is invalid']],
    ['base errors stand alone', validationFailed({ base: ['Discussion to reply to cannot be found'] }), ['Discussion to reply to cannot be found']],
    ['model errors worded for REST as a bad request', invalidRecord('Note', { note: ["can't be blank"] }, 'bad_request'), ["Note can't be blank"]],
    ['Grape parameters one by one', paramErrors(['name is missing', 'path is invalid']), ['name is missing', 'path is invalid']],
    ['a bad request says its reason', badRequest('Not a percentage'), ['Not a percentage']],
    ['a service failure one by one', serviceFailed(["Title can't be blank", "Content can't be blank"]), ["Title can't be blank", "Content can't be blank"]],
    ['a conflict', conflict('A file with this name already exists'), ['A file with this name already exists']],
    ['a conflict with model errors', conflict({ name: ['has already been taken'] }), ['Name has already been taken']],
  ])('%s', async (_name, error, errors) => {
    expect(await failing(error)).toEqual({ value: null, errors });
  });

  it('not found, forbidden and unauthorized are the same top-level error; what is no refusal passes on', async () => {
    for (const error of [notFound('Project'), forbidden(), unauthorized()]) {
      await expect(failing(error)).rejects.toEqual(new GraphQLError(RESOURCE_ACCESS_ERROR));
    }
    const unchanged = notModified();
    await expect(failing(unchanged)).rejects.toBe(unchanged);
  });
});

describe('OAuth endpoints: RFC 6749, no-store', () => {
  const app = new Hono<AppEnv>();
  app.onError(oauthErrorResponse);
  app.post('/grant', () => {
    throw oauthError('invalid_grant');
  });
  app.post('/limited', () => {
    throw rateLimited(7);
  });

  it('words its own errors and a service rate limit', async () => {
    const grant = await app.request('/grant', { method: 'POST' });
    expect(grant.status).toBe(400);
    expect(grant.headers.get('cache-control')).toBe('no-store');
    expect(await grant.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('The provided authorization grant is invalid') });
    const limited = await app.request('/limited', { method: 'POST' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toEqual({ error: 'too_many_requests', error_description: 'Too many requests. Retry later.' });
  });
});
