// A single-page app on another origin: the browser's CORS preflight, then graphql-request with a bearer token over
// real HTTP (the client SPAs use, unmodified).
import { GraphQLClient, gql as tag } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories/users.ts';
import { serveTestApp } from '../helpers/app.ts';

describe('an SPA on another origin', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('passes the CORS preflight and queries with a bearer token', async () => {
    const { user, token } = await createUser();
    const preflight = await fetch(`${server.url}/api/graphql`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://spa.example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const client = new GraphQLClient(`${server.url}/api/graphql`, { headers: { Authorization: `Bearer ${token}`, Origin: 'https://spa.example.org' } });
    const data = await client.request<{ currentUser: { username: string }; echo: string }>(
      tag`query Me($text: String!) { currentUser { username } echo(text: $text) }`,
      { text: 'hello' },
    );
    expect(data).toEqual({ currentUser: { username: user.username }, echo: `"${user.username}" says: hello` });
    const raw = await client.rawRequest(tag`{ metadata { version } }`);
    expect(raw.headers.get('access-control-allow-origin')).toBe('*');
    // A bad token is the client's error (401), not anonymous data.
    const bad = new GraphQLClient(`${server.url}/api/graphql`, { headers: { Authorization: 'Bearer not-a-token' } });
    await expect(bad.request(tag`{ currentUser { username } }`)).rejects.toMatchObject({ response: { status: 401, errors: [{ message: 'Invalid token' }] } });
  });
});
