// Cross-cutting answers: unknown routes, API v3, malformed and oversized bodies, unexpected errors, and the
// headers every response carries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db, DatabaseProvider } from '../../../db/client.ts';
import { createApp } from '../../../functions/app.ts';
import { api, request, testEnv, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const INVALID_JSON = {
  error:
    "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json in the request's 'body' ",
};

afterEach(() => vi.restoreAllMocks());

describe('routing', () => {
  it('unknown routes: 404 {"error":"404 Not Found"}', async () => {
    const { token } = await createUser();
    expect((await request('GET', '/api/v4/nothing-here')).body).toEqual({ error: '404 Not Found' });
    for (const [method, path] of [
      ['GET', '/api/v4/nothing-here'],
      ['POST', '/api/v4/users/1/nothing'],
      ['DELETE', '/api/v4/user'],
      ['GET', '/api/v5/users'],
    ]) {
      const res = await request(method!, path!, { token });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    }
    // Anonymous writes: 401 on an endpoint (authenticate_non_get!), still 404 where there is none.
    expect(await request('POST', '/api/v4/users/1/nothing')).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
    expect(await request('POST', '/api/v4/projects', { body: {} })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('API v3: 410 Gone for any method and path', async () => {
    for (const [method, path] of [
      ['GET', '/api/v3/projects'],
      ['POST', '/api/v3/anything/at/all'],
      ['GET', '/api/v3/user'],
    ]) {
      const res = await request(method!, path!);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
    }
  });
});

describe('request bodies', () => {
  it("malformed JSON: 400 with Grape's InvalidMessageBody message", async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: '{"email": "a@b.c", name: }' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_JSON);
    // An empty JSON body is no body at all.
    const empty = await api.post('/users', { token, body: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/^email is missing/);
  });

  it('a body over 1 MiB: 413', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: JSON.stringify({ bio: 'x'.repeat(1024 * 1024 + 1) }) });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('unexpected errors', () => {
  it('500 {"message":"500 Internal Server Error"} without details; logged with the request id, secrets redacted', async () => {
    const secret = 'postgres://app:hunter2@db.internal/prod';
    const failing = new Proxy({} as Db, {
      get() {
        throw new Error(`connect ECONNREFUSED ${secret}`);
      },
    });
    const provider: DatabaseProvider = {
      open: () => ({ db: failing, batch: () => Promise.reject(new Error(secret)), transaction: () => Promise.reject(new Error(secret)) }),
    };
    const app = createApp({ database: () => provider });
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));

    const res = await app.fetch(
      new Request(`${TEST_PUBLIC_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-secret-value', 'X-Request-Id': 'req-500' } }),
      testEnv,
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ message: '500 Internal Server Error' });
    expect(text).not.toContain('ECONNREFUSED');
    expect(res.headers.get('x-request-id')).toBe('req-500');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]!);
    expect(entry).toMatchObject({ level: 'error', requestId: 'req-500', path: '/api/v4/user' });
    expect(logged[0]).toContain('ECONNREFUSED');
    expect(logged[0]).not.toContain('hunter2');
    expect(logged[0]).not.toContain('glpat-secret-value');
  });
});

describe('headers on every response', () => {
  it('X-Request-Id, nosniff, SAMEORIGIN and Server-Timing with the query count, errors included', async () => {
    const { user, token } = await createUser();
    const responses = [
      await api.get(`/users/${user.id}`),
      await api.get('/user', { token }),
      await api.get('/user'),
      await api.get('/nothing-here'),
      await request('GET', '/api/v3/user'),
      await api.get('/users', { token, query: { per_page: 0 } }),
    ];
    for (const res of responses) {
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{1,64}$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('server-timing')).toMatch(/^db;dur=\d+(\.\d)?;desc="\d+ quer(y|ies), \d+ round trips?(, ws)?"$/);
    }
    expect(responses[0]!.headers.get('server-timing')).toMatch(/desc="1 query, 1 round trip"$/);
    expect(responses[3]!.headers.get('server-timing')).toMatch(/desc="0 queries, 0 round trips"$/);
    expect(responses[0]!.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('request ids are unique per request and a well-formed incoming id is kept', async () => {
    const a = await api.get('/users/1');
    const b = await api.get('/users/1');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect((await api.get('/users/1', { headers: { 'X-Request-Id': 'trace-42' } })).headers.get('x-request-id')).toBe('trace-42');
    const injected = await api.get('/users/1', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(injected.headers.get('x-request-id')).not.toContain(' ');
  });
});
