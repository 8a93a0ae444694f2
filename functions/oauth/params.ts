// Reading OAuth endpoint parameters: any body fault is an RFC 6749 invalid_request, never a REST-shaped 400.
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';
import { oauthError } from '../lib/errors.ts';
import { readInput } from '../lib/validate.ts';

export async function readOAuthInput(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  try {
    return await readInput(c);
  } catch {
    throw oauthError('invalid_request');
  }
}

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
