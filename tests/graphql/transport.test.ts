// The endpoint: POST and GET, batching, authentication (tokens, invalid token 401, sessions need X-CSRF-Token),
// scopes (mutations need api), and the limits checked before any resolver runs.
import { describe, expect, it } from 'vitest';
import { insertSession } from '../../db/queries/lib/sessions.ts';
import { randomToken, sha256Hex } from '../../functions/lib/crypto.ts';
import { csrfTokenFor, SESSION_COOKIE } from '../../functions/lib/session.ts';
import { createAdmin, createToken, createUser } from '../factories/users.ts';
import { request, TEST_PUBLIC_URL, testDb } from '../helpers/app.ts';
import { gql } from './helpers.ts';

describe('POST /api/graphql', () => {
  it('answers a query anonymously and signed in', async () => {
    const { user, token } = await createUser();
    let res = await gql('{ currentUser { username } metadata { version revision } echo(text: "hi") }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { currentUser: null, metadata: { version: '13.6.0', revision: 'edge' }, echo: 'nil says: hi' } });
    res = await gql('{ currentUser { id username webUrl webPath } echo(text: "hi") }', { token });
    expect(res.body).toEqual({
      data: {
        currentUser: {
          id: `gid://gitlab/User/${user.id}`,
          username: user.username,
          webUrl: `${TEST_PUBLIC_URL}/${user.username}`,
          webPath: `/${user.username}`,
        },
        echo: `"${user.username}" says: hi`,
      },
    });
  });

  it('GET runs queries; batched operations answer as an array', async () => {
    const res = await request('GET', '/api/graphql', { query: { query: '{ echo(text: "get") }' } });
    expect(res).toMatchObject({ status: 200, body: { data: { echo: 'nil says: get' } } });
    const batch = await request('POST', '/api/graphql', { body: [{ query: '{ echo(text: "a") }' }, { query: '{ echo(text: "b") }' }] });
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([{ data: { echo: 'nil says: a' } }, { data: { echo: 'nil says: b' } }]);
  });

  it('an invalid token is 401; a token without api/read_api is 403', async () => {
    expect(await gql('{ echo(text: "x") }', { token: 'glpat-nonsense' })).toMatchObject({ status: 401, body: { errors: [{ message: 'Invalid token' }] } });
    const { user } = await createUser();
    const readUser = await createToken(user, ['read_user']);
    expect((await gql('{ echo(text: "x") }', { token: readUser })).status).toBe(403);
    const readApi = await createToken(user, ['read_api']);
    expect((await gql('{ currentUser { username } }', { token: readApi })).body).toEqual({ data: { currentUser: { username: user.username } } });
  });

  it('a browser session counts only with its X-CSRF-Token; without one the request is anonymous (not an error)', async () => {
    const { user } = await createUser();
    const value = randomToken();
    await insertSession(testDb().db, { digest: await sha256Hex(value), userId: user.id, expiresAt: new Date(Date.now() + 3600_000) });
    const cookie = `${SESSION_COOKIE}=${value}`;
    const query = '{ currentUser { username } }';
    expect((await gql(query, { headers: { cookie } })).body).toEqual({ data: { currentUser: null } });
    expect((await gql(query, { headers: { cookie, 'x-csrf-token': 'forged' } })).body).toEqual({ data: { currentUser: null } });
    const ok = await gql(query, { headers: { cookie, 'x-csrf-token': await csrfTokenFor(value) } });
    expect(ok.body).toEqual({ data: { currentUser: { username: user.username } } });
  });

  it('over GET too, a browser session counts only with its X-CSRF-Token', async () => {
    const { user } = await createUser();
    const value = randomToken();
    await insertSession(testDb().db, { digest: await sha256Hex(value), userId: user.id, expiresAt: new Date(Date.now() + 3600_000) });
    const cookie = `${SESSION_COOKIE}=${value}`;
    const get = (headers: Record<string, string>) => request('GET', '/api/graphql', { query: { query: '{ currentUser { username } }' }, headers });
    expect((await get({ cookie })).body).toEqual({ data: { currentUser: null } });
    expect((await get({ cookie, 'x-csrf-token': 'forged' })).body).toEqual({ data: { currentUser: null } });
    expect((await get({ cookie, 'x-csrf-token': await csrfTokenFor(value) })).body).toEqual({ data: { currentUser: { username: user.username } } });
  });

  it('GET with variables that are not JSON is 422 (Gitlab::Graphql::Variables::Invalid), not a server error', async () => {
    for (const name of ['variables', 'extensions']) {
      const res = await request('GET', '/api/graphql', { query: { query: '{ echo(text: "x") }', [name]: 'NaN' } });
      expect([res.status, res.body.errors.length, typeof res.body.errors[0].message]).toEqual([422, 1, 'string']);
    }
  });

  it('a mutation over GET is refused', async () => {
    const res = await request('GET', '/api/graphql', { query: { query: 'mutation { __typename }' } });
    expect(res.status).toBe(405);
    expect(res.body.errors[0].message).toMatch(/mutation/i);
  });

  it('depth: 15 anonymous, 20 signed in', async () => {
    const { token } = await createUser();
    // __type > ofType x n > name: depth n + 2 (introspection counts, as graphql-ruby's default)
    const deep = (n: number) => `{ __type(name: "User") { ${'ofType { '.repeat(n)}name${' }'.repeat(n)} } }`;
    expect((await gql(deep(13))).body.errors).toBeUndefined(); // 15
    expect((await gql(deep(14))).body).toEqual({ errors: [{ message: 'Query has depth of 16, which exceeds max depth of 15' }] });
    expect((await gql(deep(18), { token })).body.errors).toBeUndefined(); // 20
    expect((await gql(deep(19), { token })).body).toEqual({ errors: [{ message: 'Query has depth of 21, which exceeds max depth of 20' }] });
  });

  it('complexity and depth limits with GitLab numbers, before any resolver runs; queryComplexity reports the score', async () => {
    const { token } = await createUser();
    const admin = await createAdmin();
    let res = await gql('{ queryComplexity { score limit } }');
    expect(res.body).toEqual({ data: { queryComplexity: { score: 3, limit: 200 } } });
    res = await gql('{ queryComplexity { limit } }', { token });
    expect(res.body.data.queryComplexity.limit).toBe(250);
    res = await gql('{ queryComplexity { limit } }', { token: admin.token });
    expect(res.body.data.queryComplexity.limit).toBe(300);
    // users(first: 100) doubles its cost: (1 + nodes(1 + 4 fields)) * 2 = 12, plus pageInfo...
    const wide = `{ ${Array.from({ length: 201 }, (_, i) => `a${i}: echo(text: "x")`).join(' ')} }`;
    res = await gql(wide);
    expect(res.body).toEqual({ errors: [{ message: 'Query has complexity of 201, which exceeds max complexity of 200' }] });
    expect((await gql(wide, { token })).body.data.a200).toBe(
      `"${(await gql('{ currentUser { username } }', { token })).body.data.currentUser.username}" says: x`,
    );
  });

  it('query text over 10,000 characters is refused', async () => {
    const res = await gql(`{ echo(text: "${'x'.repeat(10_000)}") }`);
    expect(res.body).toEqual({ errors: [{ message: 'Query too large' }] });
  });

  it('a 2,000-deep list literal is refused before parsing (graphql-js would overflow its stack: a 500)', async () => {
    const deep = `${'['.repeat(2000)}${']'.repeat(2000)}`;
    const res = await gql(`{ echo(text: ${deep}) }`);
    expect([res.status, res.body]).toEqual([200, { errors: [{ message: 'Query too deeply nested' }] }]);
    // Brackets inside strings and comments are text, not nesting.
    const quoted = await gql(`{ echo(text: "${'['.repeat(500)}") } # ${'{'.repeat(500)}`);
    expect(quoted.body).toEqual({ data: { echo: `nil says: ${'['.repeat(500)}` } });
    // Deep JSON variables are coerced without recursion trouble: a type error.
    const variables = await request('POST', '/api/graphql', { body: { query: 'query($t: String!) { echo(text: $t) }', variables: { t: JSON.parse(deep) } } });
    expect(variables.status).toBeLessThan(500);
    expect(variables.body.errors).toHaveLength(1);
  });
});

describe('introspection', () => {
  it("every client's standard introspection query fits the anonymous limits", async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const res = await gql(getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType).toMatchObject({ name: 'Query' });
  });
});
