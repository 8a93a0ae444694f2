// lib/log.ts: JSON lines with credentials redacted, wherever they appear.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, redact } from '../../functions/lib/log.ts';

afterEach(() => vi.restoreAllMocks());

describe('redact', () => {
  it.each([
    ['GET /api/v4/user?private_token=abc123&page=2', 'GET /api/v4/user?private_token=[REDACTED]&page=2'],
    ['/oauth/token?code=xyz&state=s', '/oauth/token?code=[REDACTED]&state=s'],
    [
      'access_token=a refresh_token=b client_secret=c password=d job_token=e',
      'access_token=[REDACTED] refresh_token=[REDACTED] client_secret=[REDACTED] password=[REDACTED] job_token=[REDACTED]',
    ],
    ['{"private_token":"abc","page":2}', '{"private_token":"[REDACTED]","page":2}'],
    ['Authorization: Bearer eyJhbGciOi.payload.sig', 'Authorization: Bearer [REDACTED]'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [REDACTED]'],
    ['PRIVATE-TOKEN: abc-def', 'PRIVATE-TOKEN: [REDACTED]'],
    ['token glpat-AbC_dE-f123 leaked', 'token glpat-[REDACTED] leaked'],
    ['connect postgres://app:hunter2@db.internal:5432/prod', 'connect postgres://app:[REDACTED]@db.internal:5432/prod'],
    ['nothing secret here: page=2', 'nothing secret here: page=2'],
  ])('%j', (input, expected) => expect(redact(input)).toBe(expected));

  it('redacts values under secret-looking keys, recursively, and leaves the rest', () => {
    expect(
      redact({
        requestId: 'r1',
        headers: { 'private-token': 'x', Authorization: 'Bearer y', Cookie: 'z', accept: 'application/json' },
        nested: [{ password: 'p', url: '/api/v4/user?private_token=q' }, 42, null],
        client_secret: 's',
      }),
    ).toEqual({
      requestId: 'r1',
      headers: { 'private-token': '[REDACTED]', Authorization: '[REDACTED]', Cookie: '[REDACTED]', accept: 'application/json' },
      nested: [{ password: '[REDACTED]', url: '/api/v4/user?private_token=[REDACTED]' }, 42, null],
      client_secret: '[REDACTED]',
    });
  });
});

describe('log', () => {
  it('writes one JSON line per call, errors to stderr, redacted', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    log('error', 'boom', { requestId: 'r', error: 'failed for private_token=secret1', token: 'secret2' });
    log('info', 'fine', { n: 1 });
    expect(err).toHaveBeenCalledTimes(1);
    const line = String(err.mock.calls[0]![0]);
    expect(line).not.toContain('secret1');
    expect(line).not.toContain('secret2');
    expect(JSON.parse(line)).toMatchObject({ level: 'error', msg: 'boom', requestId: 'r', token: '[REDACTED]' });
    expect(JSON.parse(String(out.mock.calls[0]![0]))).toMatchObject({ level: 'info', msg: 'fine', n: 1, time: expect.any(String) });
  });
});
