// Shared by the alert notification tests: a project with an HTTP integration made through GraphQL (its token and
// URL path as the payload gives them), notifications sent as a monitoring tool sends them, and the rows they wrote.
import { and, asc, eq } from 'drizzle-orm';
import * as schema from '../../../db/schema/index.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { request, testDb, TEST_PUBLIC_URL, type TestResponse } from '../../helpers/app.ts';

export type Tier = 'free' | 'premium' | 'ultimate';

export function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'premium' } });
}

const CREATE = `mutation($input: HttpIntegrationCreateInput!) { httpIntegrationCreate(input: $input) { errors integration { id token url active name } } }`;

export interface Integration {
  id: string;
  token: string;
  /** The integration's URL without the public URL (what the tests request). */
  path: string;
}

export async function createIntegration(
  ownerToken: string,
  projectPath: string,
  o: { name?: string; active?: boolean; tier?: Tier } = {},
): Promise<Integration> {
  const res = await gql(CREATE, {
    token: ownerToken,
    tier: o.tier,
    variables: { input: { projectPath, name: o.name ?? 'Monitor', active: o.active ?? true } },
  });
  const created = res.body.data.httpIntegrationCreate;
  if (created.errors.length) throw new Error(`createIntegration: ${created.errors.join(', ')}`);
  return { id: created.integration.id, token: created.integration.token, path: (created.integration.url as string).slice(TEST_PUBLIC_URL.length) };
}

/** The integration's database id, from its global id. */
export const integrationId = (i: Integration) => Number(i.id.split('/').pop());

/** An owner, a private project and an active integration on it. */
export async function setup(o: { tier?: Tier; name?: string } = {}) {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  const integration = await createIntegration(owner.token, project.path_with_namespace, { tier: o.tier, name: o.name });
  return { owner, project, path: project.path_with_namespace as string, integration };
}

/** A notification: the body as JSON (a string is sent as is), the token as a bearer token. */
export function notify(path: string, o: { token?: string | null; body?: unknown; tier?: Tier; headers?: Record<string, string> } = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  return request('POST', path, {
    headers,
    body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
    env: { INSTANCE_TIER: o.tier ?? 'premium' },
  });
}

export const alertsOf = (projectId: number) =>
  testDb().db.select().from(schema.alerts).where(eq(schema.alerts.projectId, projectId)).orderBy(asc(schema.alerts.id));

export const alertNotesOf = (alertId: number) =>
  testDb()
    .db.select()
    .from(schema.notes)
    .where(and(eq(schema.notes.noteableType, 'AlertManagement::Alert'), eq(schema.notes.noteableId, alertId)))
    .orderBy(asc(schema.notes.id));

export const SHA1_HEX = /^[0-9a-f]{40}$/;

export async function sha1(s: string) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(s)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
