// Reading OAuth endpoint parameters: any body fault is an RFC 6749 invalid_request, never a REST-shaped 400.
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { oauthError } from '../lib/errors.ts';
import { readInput } from '../lib/validate.ts';

export async function readOAuthInput(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (!decodable(new URL(c.req.url).search.slice(1)) || !decodable(await formText(c))) throw oauthError('invalid_request');
  let input: Record<string, unknown>;
  try {
    input = await readInput(c);
  } catch {
    throw oauthError('invalid_request');
  }
  const repeated = repeatedParameter(c.req.queries(), await formNames(c));
  if (repeated) throw oauthError('invalid_request', { description: repeatedDescription(repeated) });
  return input;
}

/** An x-www-form-urlencoded body as sent ('' for other bodies); hono caches it for the form parse that follows. */
async function formText(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  return c.req.method !== 'GET' && type.startsWith('application/x-www-form-urlencoded') ? c.req.text() : '';
}

/**
 * Whether every name and value of a urlencoded string decodes: a stray `%` (`co%zzde`) or escapes that are not UTF-8
 * make the request malformed, where the WHATWG parser would keep the `%` or substitute U+FFFD and carry on.
 */
function decodable(encoded: string): boolean {
  try {
    for (const part of encoded.split('&')) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/** The names of a form body's fields, one entry per occurrence (hono caches the parsed body readInput read). */
async function formNames(c: Context<AppEnv>): Promise<string[]> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (c.req.method === 'GET' || !/^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(type)) return [];
  const names: string[] = [];
  (await c.req.formData()).forEach((_, k) => names.push(k));
  return names;
}

/**
 * RFC 6749 §3.1: request parameters MUST NOT be included more than once (in the query, the body, or across both).
 * Returns the first repeated name, if any.
 */
export function repeatedParameter(query: Record<string, string[]>, bodyNames: readonly string[] = []): string | undefined {
  const seen = new Set<string>();
  for (const name of [...Object.entries(query).flatMap(([k, vs]) => vs.map(() => k)), ...bodyNames]) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

export const repeatedDescription = (name: string) => `Parameter included more than once: ${name}.`;

/** A non-empty string parameter, or null (arrays, objects and numbers sent as JSON are not strings). */
export const optionalParam = (input: Record<string, unknown>, name: string): string | null => {
  const v = input[name];
  if (v === undefined || v === null || v === '') return null;
  // Not a string (JSON arrays, numbers) or holding a NUL byte (which Postgres text cannot store): malformed.
  if (typeof v !== 'string' || v.includes('\u0000')) throw oauthError('invalid_request');
  return v;
};

/** Doorkeeper's "Missing required parameter: <name>." */
export function requiredParam(input: Record<string, unknown>, name: string): string {
  const v = optionalParam(input, name);
  if (v === null) throw oauthError('invalid_request', { description: `Missing required parameter: ${name}.` });
  return v;
}
