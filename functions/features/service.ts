// Feature flag verbs (administrators only): GitLab's `Admin::SetFeatureFlagService` over Flipper's semantics.
//  - `true`/`100` enable and `false`/`0` disable, globally or, with actors, for each of them;
//  - an integer is a percentage of time, or of actors with `key=percentage_of_actors`;
//  - globally enabling clears every other gate, globally disabling clears them all (the feature row stays);
//    enabling for actors adds them to their set, disabling removes them; a percentage replaces that gate only.
// Everything that can refuse a call is checked before the single write statement, so a rejected call changes
// nothing. Where GitLab answers 500 (a percentage over 100) or ignores the problem, the answer is a 400.
import * as q from '../../db/queries/features.ts';
import type { RequestContext } from '../lib/context.ts';
import { badRequest } from '../lib/errors.ts';
import { requireAdmin } from '../users/service.ts';
import { FEATURE_DEFINITIONS } from './definitions.ts';
import { emptyGates, loadFeatureGates, rememberFeatureGates, toGates, featureState, type FeatureGates } from './evaluate.ts';
import { isFeatureGroup } from './groups.ts';
import type { SetFeatureParams } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GitLab's rule for flag names (bin/feature-flag: `[a-z0-9_-]`), at most 255 characters. */
const FLAG_NAME = /^[a-z0-9_-]+$/;
const MAX_NAME = 255;

const validFlagName = (name: string) => name.length <= MAX_NAME && FLAG_NAME.test(name);

function assertFlagName(name: string) {
  if (name.length > MAX_NAME) throw badRequest(`Feature flag name is too long (maximum is ${MAX_NAME} characters)`);
  if (!FLAG_NAME.test(name)) throw badRequest('Provide a name for the feature flag that is [a-z0-9_-]');
}

const ENABLE = new Set(['100', '100.0', 'true']);
const DISABLE = new Set(['0', '0.0', 'false']);
/** Whole percentages only (GitLab would also take decimals): `50` or `50.0`, never `50.5`. */
const WHOLE_NUMBER = /^\d+(\.0+)?$/;

/** Ruby's String#inspect, as GitLab's messages quote values. */
const inspect = (s: string) => JSON.stringify(s);

/** GET /features: every persisted feature, a page at a time (in creation order). */
export function listFeatures({ ctx }: Verb<unknown>) {
  requireAdmin(ctx);
  // The page's statement counts the features too, so `count` only hands that number over.
  let total = 0;
  return {
    fetch: async (limit: number, offset: number) => {
      const page = await q.findFeatures(ctx.db, { limit, offset });
      total = page.total;
      return [...page.features].map(([name, rows]) => ({ name, gates: toGates(rows) }));
    },
    count: async () => total,
  };
}

/** GET /features/definitions */
export function listDefinitions({ ctx }: Verb<unknown>) {
  requireAdmin(ctx);
  return {
    fetch: async (limit: number, offset: number) => FEATURE_DEFINITIONS.slice(offset, offset + limit),
    count: async () => FEATURE_DEFINITIONS.length,
  };
}

/** DELETE /features/:name: the same whether or not the feature exists. */
export async function removeFeature({ ctx, input }: Verb<{ name: string }>) {
  requireAdmin(ctx);
  // A name POST would refuse cannot be stored: nothing to delete, and nothing odd goes to the database.
  if (!validFlagName(input.name)) return;
  await q.deleteFeature(ctx.db, input.name);
  rememberFeatureGates(ctx, input.name, null);
}

/** One actor of the call: the gate set it belongs in, its value there, and how messages name it. */
interface Target {
  gate: 'groups' | 'actors';
  value: string;
}

/** `a,b,,c` -> [a, b, c]: GitLab's comma-separated lists, empty entries ignored. */
const list = (s: string | undefined) =>
  s === undefined
    ? []
    : [
        ...new Set(
          s
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean),
        ),
      ];

/**
 * The targets in GitLab's order (feature groups, users, projects, groups), all found or a 400 naming the first
 * missing one, as `Feature::Target` raises it.
 */
async function resolveTargets(ctx: RequestContext, input: SetFeatureParams): Promise<Target[]> {
  const featureGroups = list(input.feature_group);
  const refs = { users: list(input.user), projects: list(input.project), groups: list(input.group) };
  for (const name of featureGroups) if (!isFeatureGroup(name)) throw badRequest(`${name} is not found!`);
  const anyRefs = refs.users.length + refs.projects.length + refs.groups.length > 0;
  const found = anyRefs ? await q.resolveTargets(ctx.db, refs) : [];
  const ids = new Map(found.map((t) => [`${t.kind}:${t.ref}`, t.id]));
  const targets: Target[] = featureGroups.map((name) => ({ gate: 'groups', value: name }));
  const kinds = [
    ['user', refs.users, 'User'],
    ['project', refs.projects, 'Project'],
    ['group', refs.groups, 'Group'],
  ] as const;
  for (const [kind, names, type] of kinds) {
    for (const name of names) {
      const id = ids.get(`${kind}:${name.toLowerCase()}`);
      if (id === undefined) throw badRequest(`${name} is not found!`);
      targets.push({ gate: 'actors', value: `${type}:${id}` });
    }
  }
  return targets;
}

/** A whole percentage from the value, or GitLab's `Not a percentage`. */
function percentage(value: string): number {
  if (!WHOLE_NUMBER.test(value)) throw badRequest('Not a percentage');
  return Number(value);
}

/** Flipper's range check (GitLab lets its ArgumentError become a 500; here it is a 400 with Flipper's message). */
function assertInRange(n: number, value: string) {
  if (n > 100) {
    const shown = value.replace(/\.0+$/, '');
    throw badRequest(`value must be a positive number less than or equal to 100, but was ${shown}`);
  }
}

const ALL_GATES: q.GateKey[] = ['boolean', 'groups', 'actors', 'percentage_of_actors', 'percentage_of_time'];

/** POST /features/:name: sets a gate (creating the feature) and answers the feature as it now is. */
export async function setFeature({ ctx, input }: Verb<{ name: string; params: SetFeatureParams }>): Promise<{ name: string; gates: FeatureGates }> {
  requireAdmin(ctx);
  const { name, params } = input;
  assertFlagName(name);
  const { key } = params;
  // `0100` is 100 and `00` is 0, as numbers: leading zeros never turn an enable into a percentage.
  const value = WHOLE_NUMBER.test(params.value) ? params.value.replace(/^0+(?=\d)/, '') : params.value;
  const enable = ENABLE.has(value);
  const disable = DISABLE.has(value);
  let write: q.GateWrite;

  if (params.feature_group !== undefined || params.user !== undefined || params.group !== undefined || params.project !== undefined) {
    const targets = await resolveTargets(ctx, params);
    if (!targets.length) {
      // Only empty lists (`user=,`): GitLab sets nothing and answers the flag as it is, but a garbage value is
      // still refused.
      if (!enable && !disable && !WHOLE_NUMBER.test(value)) throw badRequest(`Cannot set '${name}' to ${inspect(value)}`);
      const [gates] = await loadFeatureGates(ctx, [name]);
      return { name, gates: gates ?? emptyGates() };
    }
    if (!enable && !disable) throw badRequest(`Cannot set '${name}' to ${inspect(value)} for ${targets[0]!.value}`);
    const pairs = targets.map((t) => [t.gate, t.value] as const);
    write = enable ? { clear: [], keep: [], remove: [], insert: pairs } : { clear: [], keep: [], remove: pairs, insert: [] };
  } else if (enable) {
    write = { clear: ALL_GATES.filter((k) => k !== 'boolean'), keep: [], remove: [], insert: [['boolean', 'true']] };
  } else if (disable) {
    write = { clear: ALL_GATES, keep: [], remove: [], insert: [] };
  } else if (key === 'percentage_of_actors' || key === 'percentage_of_time' || (key === undefined && WHOLE_NUMBER.test(value))) {
    const n = percentage(value);
    assertInRange(n, value);
    const gate = key === 'percentage_of_actors' ? 'percentage_of_actors' : 'percentage_of_time';
    const [current] = await loadFeatureGates(ctx, [name]);
    if (current && featureState(current) === 'on') {
      throw badRequest(`Cannot enable percentage of ${gate === 'percentage_of_actors' ? 'actors' : 'time'} for a fully-enabled flag`);
    }
    write = { clear: [gate], keep: [String(n)], remove: [], insert: [[gate, String(n)]] };
  } else {
    throw badRequest(key !== undefined ? `Cannot set '${name}' (${inspect(key)}) to ${inspect(value)}` : `Cannot set '${name}' to ${inspect(value)}`);
  }

  const gates = toGates(await q.writeGates(ctx.db, name, write));
  rememberFeatureGates(ctx, name, gates);
  return { name, gates };
}
