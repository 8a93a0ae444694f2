// No input gives a 5xx: every route of the manifest (REST, GraphQL, OAuth, uploads, alert notifications, the web
// pages), its path parameters, query string and body filled by fast-check with the classes of input that once did
// (NUL bytes, huge numbers, deep brackets, invalid UTF-8 percent-escapes, very long strings, arrays and hashes where
// scalars belong, deep JSON, malformed multipart bodies). An administrator sends them, so that input reaches past the
// permission checks, against a project with a repository and a group. Fixed seed: a failure is reproducible.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOMAINS, type Domain } from '../../../functions/routes/domains.ts';
import { ROUTE_MANIFEST } from '../../../functions/routes/manifest.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, appFetch, TEST_PUBLIC_URL } from '../../helpers/app.ts';

const SEED = 20261127;
const RUNS_PER_ROUTE = 2;

/** Every parameter name the schemas declare (`name: z.optional(...)`, `name: str()`...), read from the sources. */
function parameterNames(): string[] {
  const names = new Set(['ref', 'sha', 'path', 'file_path', 'ref_name', 'branch', 'actions', 'variables', 'query', 'id', 'search', 'page', 'per_page', 'sudo']);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/(schemas|routes)\.ts$/.test(entry.name)) {
        for (const m of readFileSync(full, 'utf8').matchAll(/^\s+([a-z][a-z0-9_]*): (?:z\.|str\(|int\(|id\(|bool\(|text\(|oneOf\(|dateTime\(|dateParam\()/gm))
          names.add(m[1]!);
      }
    }
  };
  walk(join(import.meta.dirname, '../../../functions'));
  return [...names].sort();
}

/** A value already encoded for a URL or a form body: raw escapes let invalid UTF-8 and stray `%` through. */
type Encoded = string;

const enc = (s: string) => encodeURIComponent(s);
const hostileText = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => enc(`${s}\u0000${s}`)),
  fc.constantFrom('%00', 'a%00b', 'master%00', '%C0%AF', '%FF%FE', '%E2%82', 'a%', '%zz', '%4', '%ED%A0%80', '%F4%90%80%80'),
  fc.constantFrom('9'.repeat(40), '1e999', '-99999999999999999999', '2147483648', '-1', '0', '0x10', '1.5', 'NaN', 'Infinity', '-0'),
  fc.constantFrom(enc('../../etc/passwd'), enc('.git/config'), enc('a/.GIT/b'), enc('\t\n\r'), enc('\u202e'), enc('😀'), enc(' '), '', enc('['), enc(']]')),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'a'.repeat(n)),
  fc.string({ maxLength: 30 }).map(enc),
);

/** The names most routes read, drawn as often as all the others together. */
const COMMON = [
  'id',
  'ref',
  'sha',
  'path',
  'file_path',
  'ref_name',
  'branch',
  'start_branch',
  'search',
  'title',
  'name',
  'description',
  'labels',
  'actions',
  'variables',
  'state',
  'scope',
  'order_by',
  'sort',
  'page',
  'per_page',
  'body',
  'key',
  'value',
  'content',
  'source_branch',
  'target_branch',
  'from',
  'to',
  'tag_name',
  'username',
  'user_id',
  'note',
  'position',
  'not',
  'iids',
  'created_after',
  'due_date',
  'token',
];

/** `name`, `name[]`, `name[k]`, deep brackets and broken ones. */
const hostileName = (names: string[]) =>
  fc.tuple(fc.oneof(fc.constantFrom(...COMMON), fc.constantFrom(...names)), fc.nat(7), fc.integer({ min: 2, max: 150 })).map(([n, kind, depth]) => {
    switch (kind) {
      case 0:
      case 1:
      case 2:
        return enc(n);
      case 3:
        return `${enc(n)}%5B%5D`;
      case 4:
        return `${enc(n)}%5Bk%5D`;
      case 5:
        return `${enc(n)}${'%5B%5D'.repeat(depth)}`;
      case 6:
        return `${enc(n)}${'%5Ba%5D'.repeat(depth)}`;
      default:
        return `${enc(n)}%5B%5B%5B`;
    }
  });

const pairs = (names: string[]) =>
  fc.array(fc.tuple(hostileName(names), hostileText), { minLength: 1, maxLength: 3 }).map((ps) => ps.map(([k, v]) => `${k}=${v}`).join('&'));

/** A JSON value of the kinds a JSON body can carry where a scalar is expected. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000`),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5, 2147483648, true, false, null, [], {}, [[['x']]], { a: { b: { c: 'x\u0000' } } }),
  fc.integer({ min: 100, max: 3000 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown),
  fc.string({ maxLength: 30 }),
);

type Body = { type: string; data: string } | null;
/** Each kind of body a route is sent (a read gets none). */
const BODY_KINDS = (names: string[]): Record<string, fc.Arbitrary<Body>> => ({
  none: fc.constant(null),
  form: pairs(names).map((data) => ({ type: 'application/x-www-form-urlencoded', data })),
  json: fc.oneof(
    fc
      .dictionary(fc.oneof(fc.constantFrom(...COMMON), fc.constantFrom(...names)), hostileJson, { minKeys: 1, maxKeys: 3 })
      .map((o) => ({ type: 'application/json', data: JSON.stringify(o) })),
    fc.constantFrom('{', '[1,', '"\\u0000"', '{"a":"\\ud800"}', 'null', '[]', '{"a":1e999}').map((data) => ({ type: 'application/json', data })),
  ),
  multipart: fc
    .constantFrom(
      '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nv',
      'garbage',
      '--xyz--',
      '--xyz\r\nContent-Disposition: form-data; name="a\u0000"\r\n\r\nv\u0000\r\n--xyz--\r\n',
      '',
    )
    .map((data) => ({ type: 'multipart/form-data; boundary=xyz', data })),
});

interface Fixture {
  token: string;
  projectId: number;
  groupId: number;
  userId: number;
}

/** `:name{constraint}` segments filled: the fixture's own ids for `:id` mostly (so input gets past the 404s), else hostile values. */
const pathValues = (path: string, fx: Fixture, hostile: boolean) => {
  const params = [...path.matchAll(/:(\w+)(\{[^}]*\})?/g)].map((m) => m[1]!);
  const value = (name: string) =>
    hostile
      ? fc.oneof({ weight: 2, arbitrary: fc.constant(realValue(path, name, fx)) }, { weight: 1, arbitrary: hostileText })
      : fc.constant(realValue(path, name, fx));
  return fc.tuple(...params.map(value)).map((values) => {
    let i = 0;
    return path.replace(/:(\w+)(\{[^}]*\})?/g, () => values[i++] || 'x');
  });
};

function realValue(path: string, name: string, fx: Fixture): string {
  if (name === 'id' && path.startsWith('/groups')) return String(fx.groupId);
  if (name === 'id' && path.startsWith('/users')) return String(fx.userId);
  if (name === 'id' && path.startsWith('/projects')) return String(fx.projectId);
  if (name === 'file_path') return 'README.md';
  if (name === 'branch' || name === 'ref' || name === 'sha') return 'master';
  return '1';
}

const ROUTES = (Object.entries(ROUTE_MANIFEST) as [Domain, [string, string, number][]][]).flatMap(([domain, entries]) =>
  entries.map(([method, path]) => ({ domain, method: method === 'ALL' ? 'POST' : method, path: domain in API_DOMAINS ? `/api/v4${path}` : path })),
);
// Deletions last: what they remove (the project, the group) would leave the routes after them at a 404.
const ORDERED = [...new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r])).values()].sort(
  (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
);

describe('hostile input on every route', () => {
  let fx: Fixture;
  beforeAll(async () => {
    const admin = await createAdmin();
    const other = await createUser();
    const project = await api.post('/projects', { token: admin.token, body: { name: `hostile-${Date.now()}`, initialize_with_readme: true } });
    const group = await api.post('/groups', { token: admin.token, body: { name: `hostile-${Date.now()}`, path: `hostile-${Date.now()}` } });
    fx = { token: admin.token, projectId: project.body.id, groupId: group.body.id, userId: other.user.id };
  });

  it(`no 5xx on ${ORDERED.length} routes (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const names = parameterNames();
    const failures: string[] = [];
    const kinds = BODY_KINDS(names);
    for (const [index, route] of ORDERED.entries()) {
      // Hostile path and query values RUNS_PER_ROUTE times; then, for a write, each kind of body once (on the
      // fixture's own path, so that the body is read). Each route draws from a seed of its own (one seed for all
      // would give every route the same choices).
      const runs: Array<[fc.Arbitrary<Body>, number]> = [[kinds.none!, RUNS_PER_ROUTE]];
      if (route.method !== 'GET')
        runs.push(...Object.entries(kinds).flatMap(([name, k]): Array<[fc.Arbitrary<Body>, number]> => (name === 'none' ? [] : [[k, 1]])));
      for (const [kind, [bodies, numRuns]] of runs.entries()) {
        await fc.assert(
          fc.asyncProperty(pathValues(route.path.replace(/^\/api\/v4/, ''), fx, kind === 0), pairs(names), bodies, async (path, query, b) => {
            const url = `${TEST_PUBLIC_URL}${route.path.startsWith('/api/v4') ? '/api/v4' : ''}${path}?${query}`;
            const headers: Record<string, string> = { 'PRIVATE-TOKEN': fx.token };
            if (b) headers['content-type'] = b.type;
            const res = await appFetch(url, { method: route.method, headers, body: b?.data });
            const text = await res.text();
            if (res.status >= 500)
              failures.push(`${res.status} ${route.method} ${url.slice(0, 300)} ${b ? `[${b.type}] ${b.data.slice(0, 200)}` : ''} -> ${text.slice(0, 200)}`);
          }),
          { seed: SEED + index * 8 + kind, numRuns },
        );
      }
    }
    expect(failures).toEqual([]);
  });
});
