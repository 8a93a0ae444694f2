// Iterations through GraphQL's createIteration (13.6 has no REST create) on a premium instance, and days relative to
// today (iterations may not start in the past).
import { request } from '../helpers/app.ts';

export const PREMIUM = { INSTANCE_TIER: 'premium' as const };

/** `YYYY-MM-DD`, `offset` days from today (UTC). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export const CREATE_ITERATION = `mutation($input: CreateIterationInput!) {
  createIteration(input: $input) { errors iteration { id iid title description state startDate dueDate webPath webUrl } }
}`;

/** GraphQL on a premium instance (or the tier given). */
export const gqlAs = (token: string | undefined, query: string, variables: Record<string, unknown> = {}, tier: 'free' | 'premium' | 'ultimate' = 'premium') =>
  request('POST', '/api/graphql', { token, body: { query, variables }, env: { INSTANCE_TIER: tier } });

export async function createIteration(
  token: string,
  groupPath: string,
  attributes: { title?: string; startDate: string; dueDate: string; description?: string },
) {
  const res = await gqlAs(token, CREATE_ITERATION, { input: { groupPath, title: attributes.title ?? `Iteration ${attributes.startDate}`, ...attributes } });
  const out = res.body?.data?.createIteration;
  if (!out?.iteration) throw new Error(`createIteration failed: ${res.text}`);
  return out.iteration as { id: string; iid: string; title: string; state: string; startDate: string; dueDate: string; webPath: string };
}
