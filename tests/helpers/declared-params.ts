// What a route declares (the schemas of its params() validators), read from the domains' Hono apps as the route
// manifest is: the tests that hold every declared parameter to "applied or refused" start from this list.
import { expect } from 'vitest';
import { DOMAINS, type Domain } from '../../functions/routes/domains.ts';
import { DECLARED_PARAMS, type Schema } from '../../functions/lib/validate.ts';

type Def = { type: string; shape?: Record<string, unknown>; in?: { _zod: { def: Def } }; innerType?: { _zod: { def: Def } } };

/** The top-level keys of an object schema, through pipes and wrappers. */
function keysOf(def: Def): string[] {
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.type === 'pipe' && def.in) return keysOf(def.in._zod.def);
  if (def.innerType) return keysOf(def.innerType._zod.def);
  throw new Error(`no object schema (${def.type})`);
}

/** Every route's declared parameters, by `METHOD path` (routes without a params() validator are absent). */
export async function declaredParamsByRoute(): Promise<Map<string, { domain: Domain; params: string[] }>> {
  const out = new Map<string, { domain: Domain; params: string[] }>();
  for (const domain of Object.keys(DOMAINS) as Domain[]) {
    for (const r of (await DOMAINS[domain]()).routes) {
      const schema = (r.handler as unknown as Record<symbol, Schema | undefined>)[DECLARED_PARAMS];
      if (!schema) continue;
      const key = `${r.method} ${r.path}`;
      const params = keysOf(schema()._zod.def as unknown as Def);
      out.set(key, { domain, params: [...new Set([...(out.get(key)?.params ?? []), ...params])] });
    }
  }
  return out;
}

/** One parameter of a read-back table: the value sent, and what the entity then shows (another key or shape), or where it is tested. */
export type ReadBackCase = { send: unknown; read?: [key: string, value: unknown] } | { elsewhere: string };

/** The request body of a read-back table: every parameter with a value to send. */
export const sentValues = (cases: Record<string, ReadBackCase>) =>
  Object.fromEntries(Object.entries(cases).flatMap(([k, c]) => ('send' in c ? [[k, c.send]] : [])));

/** The entity shows every sent value (each key compared alone, so a failure names it). */
export function expectReadBack(entity: Record<string, unknown>, cases: Record<string, ReadBackCase>) {
  for (const [key, c] of Object.entries(cases)) {
    if (!('send' in c)) continue;
    const [readKey, value] = c.read ?? [key, c.send];
    expect({ [readKey]: entity[readKey] }).toEqual({ [readKey]: value });
  }
}
