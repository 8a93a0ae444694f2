// What a route declares (the schemas of its params() validators), read from the domains' Hono apps as the route
// manifest is: the tests that hold every declared parameter to "applied or refused" start from this list.
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
